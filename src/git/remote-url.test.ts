import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { createBareRepo, makeTempDir, removeTempDir } from '../../test/helpers/git-fixtures.js';
import { runGit } from './git.js';
import { classifyRemote, isBlockedAddress, type ClassifyRemoteOptions } from './remote-url.js';

const dns: Record<string, string[]> = {
  'github.com': ['140.82.121.3'],
  'gitlab.example.com': ['2a01:4f8:1c1c:1::1', '203.0.114.9'],
  'evil.example.com': ['93.184.216.34', '10.0.0.7'],
  'rebind.example.com': ['::ffff:127.0.0.1'],
  'meta.example.com': ['169.254.169.254'],
};
const resolveHost = async (host: string): Promise<string[]> => {
  const found = dns[host];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return found;
};

let dataDir: string;
let outside: string;
let opts: ClassifyRemoteOptions;
beforeEach(async () => {
  outside = await makeTempDir('folio-remote-');
  dataDir = join(outside, 'data');
  await mkdir(join(dataDir, 'workspaces', 'w1'), { recursive: true });
  opts = { fileRemoteRoot: join(outside, 'remotes'), dataDir, resolveHost };
  await mkdir(join(outside, 'remotes'));
});
afterEach(async () => {
  await removeTempDir(outside);
});

async function refusal(url: string, o: ClassifyRemoteOptions = opts): Promise<AppError> {
  const e = await classifyRemote(url, o).catch((x: unknown) => x);
  expect(e, url).toBeInstanceOf(AppError);
  expect((e as AppError).code).toBe('VALIDATION_ERROR');
  expect((e as AppError).details).toEqual({ field: 'git_remote' });
  return e as AppError;
}

describe('classifyRemote', () => {
  it('accepts public https remotes and strips credentials from the display', async () => {
    expect(await classifyRemote('https://github.com/acme/docs.git', opts)).toEqual({
      kind: 'https',
      display: 'https://github.com/acme/docs.git',
    });
    const withCreds = await classifyRemote('https://bot:ghp_s3cret@gitlab.example.com:8443/a/b.git', opts);
    expect(withCreds).toEqual({ kind: 'https', display: 'https://gitlab.example.com:8443/a/b.git' });
    expect((await classifyRemote('https://ghp_tokenonly@github.com/a/b', opts)).display).toBe(
      'https://github.com/a/b',
    );
  });

  it('accepts ssh URLs and scp-like remotes, keeping the user but never a password', async () => {
    expect(await classifyRemote('git@github.com:acme/docs.git', opts)).toEqual({
      kind: 'ssh',
      display: 'git@github.com:acme/docs.git',
    });
    expect(await classifyRemote('ssh://git:pw@github.com:22/acme/docs.git', opts)).toEqual({
      kind: 'ssh',
      display: 'ssh://git@github.com:22/acme/docs.git',
    });
    await refusal('git@localhost:acme/docs.git');
    await refusal('git@10.1.2.3:acme/docs.git');
  });

  it('refuses loopback, private, link-local and metadata hosts, however they are spelt', async () => {
    for (const url of [
      'https://127.0.0.1/r.git',
      'https://localhost/r.git',
      'https://api.localhost/r.git',
      'https://[::1]/r.git',
      'https://[::ffff:127.0.0.1]/r.git',
      'https://0x7f000001/r.git',
      'https://2130706433/r.git',
      'https://169.254.169.254/latest/meta-data',
      'https://metadata.google.internal/computeMetadata',
      'https://192.168.1.10/r.git',
      'https://[fd00:ec2::254]/r.git',
      'https://[64:ff9b::127.0.0.1]/r.git',
      'https://[64:ff9b::a9fe:a9fe]/r.git',
      'https://evil.example.com/r.git', // one private address among public ones is enough
      'https://rebind.example.com/r.git',
      'https://meta.example.com/r.git',
    ]) {
      await refusal(url);
    }
    expect((await refusal('https://no-such-host.example/r.git')).message).toMatch(/cannot be resolved/);
  });

  it('allows private hosts and plain http only with allowPrivateHosts', async () => {
    await refusal('http://github.com/acme/docs.git');
    const loose = { ...opts, allowPrivateHosts: true };
    expect(await classifyRemote('http://127.0.0.1:41234/docs.git', loose)).toEqual({
      kind: 'https',
      display: 'http://127.0.0.1:41234/docs.git',
    });
  });

  it('refuses unknown and dangerous schemes', async () => {
    for (const url of [
      'ext::sh -c touch% /tmp/pwned',
      'fd::17',
      'git://github.com/acme/docs.git',
      'ftp://example.com/r.git',
      'rsync://example.com/r.git',
      '--upload-pack=touch /tmp/pwned',
      'https://github.com/a b.git',
      'relative/path/repo.git',
      '',
    ]) {
      await refusal(url);
    }
  });

  it('accepts local repositories below the file remote root only when there is one', async () => {
    const repo = await createBareRepo(join(outside, 'remotes'), 'docs');
    expect(await classifyRemote(repo, opts)).toEqual({ kind: 'file', display: repo });
    expect(await classifyRemote(`file://${repo}`, opts)).toEqual({ kind: 'file', display: `file://${repo}` });
    const clone = join(outside, 'remotes', 'clone');
    await runGit(outside, ['clone', '-q', repo, clone]);
    expect(await classifyRemote(clone, opts)).toEqual({ kind: 'file', display: clone });
    const off = { ...opts, fileRemoteRoot: undefined };
    expect((await refusal(repo, off)).message).toMatch(/not allowed/);
    await refusal(`file://${repo}`, off);
    expect((await refusal(join(outside, 'remotes', 'missing.git'))).message).toMatch(/does not exist/);
    expect((await refusal(join(outside, 'remotes'))).message).toMatch(/not a git repository/);
  });

  it('refuses local repositories outside the root, also through symlinks', async () => {
    const elsewhere = await createBareRepo(outside, 'elsewhere');
    expect((await refusal(elsewhere)).message).toMatch(/inside the directory the server allows/);
    await refusal(`${outside}/remotes/../elsewhere.git`);
    const link = join(outside, 'remotes', 'link.git');
    await symlink(elsewhere, link);
    await refusal(link);
    // A repository below the root whose objects folder is another repository's.
    const shell = await createBareRepo(join(outside, 'remotes'), 'shell');
    await rm(join(shell, 'objects'), { recursive: true });
    await symlink(join(elsewhere, 'objects'), join(shell, 'objects'));
    expect((await refusal(shell)).message).toMatch(/link outside/);
  });

  it("refuses git's indirections: gitdir files, commondir files and alternates", async () => {
    const victim = join(dataDir, 'workspaces', 'w1');
    await runGit(outside, ['init', '-q', victim]);
    const gitdirFile = join(outside, 'remotes', 'gitdir');
    await mkdir(gitdirFile);
    await writeFile(join(gitdirFile, '.git'), `gitdir: ${join(victim, '.git')}\n`);
    expect((await refusal(gitdirFile)).message).toMatch(/gitdir file/);

    const alternates = await createBareRepo(join(outside, 'remotes'), 'alternates');
    await writeFile(
      join(alternates, 'objects', 'info', 'alternates'),
      `${join(victim, '.git', 'objects')}\n`,
    );
    expect((await refusal(alternates)).message).toMatch(/alternates/);

    const common = await createBareRepo(join(outside, 'remotes'), 'common');
    await writeFile(join(common, 'commondir'), `${join(victim, '.git')}\n`);
    expect((await refusal(common)).message).toMatch(/commondir/);
  });

  it('refuses local paths inside the data directory, also through .. and symlinks', async () => {
    await refusal(dataDir);
    await refusal(join(dataDir, 'workspaces', 'w1'));
    await refusal(`${outside}/remotes/../data/workspaces/w1`);
    await refusal(`file://${join(dataDir, 'workspaces')}`);
    const link = join(outside, 'link-to-data');
    await symlink(dataDir, link);
    await refusal(join(link, 'workspaces', 'w1'));
    await refusal('file://otherhost/srv/repo.git');
  });
});

describe('isBlockedAddress', () => {
  it('separates public from internal addresses', () => {
    for (const ip of [
      '8.8.8.8',
      '140.82.121.3',
      '2a01:4f8:1c1c:1::1',
      '2606:4700::1111',
      '64:ff9b::8.8.8.8',
      '64:ff9b::808:808',
    ]) {
      expect(isBlockedAddress(ip), ip).toBe(false);
    }
    for (const ip of [
      '127.0.0.1',
      '10.0.0.1',
      '172.31.255.255',
      '100.64.0.1',
      '0.0.0.0',
      '::',
      '::1',
      'fe80::1',
      'fc00::1',
      '64:ff9b::10.0.0.1',
      '64:ff9b::7f00:1',
      '64:ff9b:1::8.8.8.8',
      '2002:7f00:1::1',
      'not-an-ip',
    ]) {
      expect(isBlockedAddress(ip), ip).toBe(true);
    }
  });
});
