import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseTargets } from '../helpers/databases.js';
import { createBareRepo } from '../helpers/git-fixtures.js';
import { type GitSshServer, sshdAvailable, startGitSshServer } from '../helpers/git-ssh-server.js';
import { eventually, fileAt, pageUrl, type SyncEnv, startSync } from './sync-helpers.js';

if (!sshdAvailable)
  console.warn('[folio tests] /usr/sbin/sshd is missing: the SSH host key tests are skipped.');

describe.skipIf(!sshdAvailable)('SSH host keys', () => {
  let env: SyncEnv;
  let sshd: GitSshServer | undefined;
  afterEach(async () => {
    await sshd?.close();
    sshd = undefined;
    await env?.cleanup();
  });

  it('shows the key trusted on first use, names a changed key, and lets an admin reset it', async () => {
    env = await startSync(databaseTargets()[0]!);
    const as = (method: string, p: string, body?: unknown) =>
      env.server.request(method, p, { token: env.owner.token, body });
    sshd = await startGitSshServer(path.join(env.tmp, 'sshd'));
    const bare = await createBareRepo(env.tmp, 'docs');
    const ws = (await as('GET', '/api/v1/workspaces')).body.data[0];
    sshd.authorize((await as('GET', `/api/v1/workspaces/${ws.id}/deploy-key`)).body.public_key);
    const remoteUrl = `/api/v1/workspaces/${ws.id}/git-remote`;
    expect((await as('PUT', remoteUrl, { git_remote: sshd.urlFor(bare) })).status).toBe(200);

    const synced = await as('POST', `/api/v1/workspaces/${ws.id}/sync`);
    expect(synced.status).toBe(200);
    expect(await fileAt(bare, 'index.md')).not.toBeNull();
    const trusted = (await as('GET', `/api/v1/workspaces/${ws.id}`)).body;
    expect(trusted.git_host_key).toEqual({
      host: expect.stringContaining('127.0.0.1'),
      type: 'ssh-ed25519',
      fingerprint: sshd.fingerprint(),
    });

    // The server now shows another key: refused, with its own reason and a message a person can act on.
    const first = sshd.fingerprint();
    await sshd.replaceHostKey();
    const refused = await as('POST', `/api/v1/workspaces/${ws.id}/sync`);
    expect(refused.status).toBe(503);
    expect(refused.body.details.reason).toBe('host-key-changed');
    const record = (await as('GET', `/api/v1/workspaces/${ws.id}`)).body;
    expect(record.sync_status).toBe('error');
    expect(record.last_error).toMatch(/SSH host key has changed/);
    expect(record.last_error).toMatch(/git-host-key/);
    expect(record.last_error).not.toContain('@@@');
    expect(record.git_host_key.fingerprint).toBe(first);

    // Disconnecting clears the error about that remote; reconnecting meets the same changed key.
    const off = await as('PUT', remoteUrl, { git_remote: null });
    expect(off.body).toMatchObject({ sync_status: 'idle', last_error: null });
    expect((await as('PUT', remoteUrl, { git_remote: sshd.urlFor(bare) })).status).toBe(200);
    expect((await as('POST', `/api/v1/workspaces/${ws.id}/sync`)).body.details.reason).toBe(
      'host-key-changed',
    );

    const reset = await as('DELETE', `/api/v1/workspaces/${ws.id}/git-host-key`);
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ id: ws.id, last_error: null });
    expect((await as('POST', pageUrl(ws.slug, 'after-reset.md'), { title: 'After reset' })).status).toBe(201);
    await eventually(async () => fileAt(bare, 'after-reset.md'), 30_000);
    const now = (await as('GET', `/api/v1/workspaces/${ws.id}`)).body;
    expect(now.git_host_key.fingerprint).toBe(sshd.fingerprint());
    expect(now.git_host_key.fingerprint).not.toBe(first);
  }, 120_000);
});
