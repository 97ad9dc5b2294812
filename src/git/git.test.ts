import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../../test/helpers/git-fixtures.js';
import { classifyGitFailure, GitError, gitAvailable, redactCredentials, runGit } from './git.js';

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await removeTempDir(dir);
});

describe('runGit', () => {
  it('runs git without a shell and returns its output', async () => {
    await runGit(dir, ['init', '-q', '-b', 'main']);
    const value = '$(touch pwned) `touch pwned2`; echo hi';
    await runGit(dir, ['config', 'folio.test', value]);
    const r = await runGit(dir, ['config', 'folio.test']);
    expect(r.stdout).toBe(`${value}\n`);
    expect(r.code).toBe(0);
    expect(existsSync(join(dir, 'pwned')) || existsSync(join(dir, 'pwned2'))).toBe(false);
    const hashed = await runGit(dir, ['hash-object', '--stdin'], { input: 'hello\n' });
    expect(hashed.stdout.trim()).toBe('ce013625030ba8dba906f756967f9e9ca394464a'); // `echo hello | git hash-object --stdin`
  });

  it('throws GitError on failure and resolves with the code when allowFailure', async () => {
    await expect(runGit(dir, ['rev-parse', 'HEAD'])).rejects.toBeInstanceOf(GitError);
    const r = await runGit(dir, ['rev-parse', 'HEAD'], { allowFailure: true });
    expect(r.code).toBe(128);
    expect(r.stderr).toMatch(/not a git repository/); // LC_ALL=C keeps messages parseable
  });

  it('ignores global config and stray GIT_* variables of the server process', async () => {
    await runGit(dir, ['init', '-q', '-b', 'main']);
    const saved = process.env.GIT_DIR;
    process.env.GIT_DIR = '/nonexistent/elsewhere';
    try {
      const r = await runGit(dir, ['rev-parse', '--git-dir']);
      expect(r.stdout.trim()).toBe('.git');
      const hooks = await runGit(dir, ['config', 'core.hooksPath']);
      expect(hooks.stdout.trim()).toBe('/dev/null');
    } finally {
      if (saved === undefined) delete process.env.GIT_DIR;
      else process.env.GIT_DIR = saved;
    }
  });

  it('redacts URL credentials from error command and stderr', async () => {
    await runGit(dir, ['init', '-q']);
    const error = await runGit(dir, ['ls-remote', 'https://alice:s3cretTOKEN@127.0.0.1:1/x.git'], {
      timeoutMs: 20_000,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitError);
    const e = error as GitError;
    const all = `${e.message}\n${e.command}\n${e.stderr}\n${e.stack ?? ''}`;
    expect(all).not.toContain('s3cretTOKEN');
    expect(all).not.toContain('alice:');
    expect(e.command).toContain('https://***@127.0.0.1:1/x.git');
    expect(e.kind).toBe('unavailable');
  });

  describe('timeouts', () => {
    let server: Server;
    afterEach(async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    });

    it('kills a hanging network operation and reports kind timeout', async () => {
      server = createServer(() => {}); // accepts, never answers
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const { port } = server.address() as AddressInfo;
      const started = Date.now();
      const e = await runGit(dir, ['ls-remote', `http://127.0.0.1:${port}/repo.git`], {
        timeoutMs: 500,
      }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(GitError);
      expect((e as GitError).kind).toBe('timeout');
      expect((e as GitError).code).toBeNull();
      expect(Date.now() - started).toBeLessThan(15_000);
    });
  });
});

describe('redactCredentials', () => {
  it('blanks userinfo, authorization values and literal secrets', () => {
    expect(redactCredentials('fatal: https://u:p@h.example/r.git and ssh://git@h/r')).toBe(
      'fatal: https://***@h.example/r.git and ssh://***@h/r',
    );
    expect(redactCredentials('Authorization: Basic dTpw')).toBe('Authorization: Basic ***');
    expect(redactCredentials('password is hunter22!', ['hunter22!'])).toBe('password is ***');
  });
});

describe('classifyGitFailure', () => {
  it('reads the usual failures', () => {
    expect(classifyGitFailure("fatal: Authentication failed for 'https://h/r.git/'")).toBe('auth');
    expect(classifyGitFailure(' ! [rejected]        main -> main (fetch first)')).toBe('rejected');
    expect(classifyGitFailure("fatal: couldn't find remote ref main")).toBe('not-found');
    expect(classifyGitFailure('The requested URL returned error: 503')).toBe('unavailable');
    expect(classifyGitFailure('something else')).toBe('unknown');
  });
});

describe('gitAvailable', () => {
  it('returns the installed version', async () => {
    expect(await gitAvailable()).toMatch(/^\d+\.\d+/);
  });
});
