import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { workspaceMetaFile } from '../../src/content/workspace-meta.js';
import { createLogger } from '../../src/logger.js';
import { describeEachDatabase, databaseTargets } from '../helpers/databases.js';
import { bob, cloneRepo, commitFile, createBareRepo, fileUrl, pushClone } from '../helpers/git-fixtures.js';
import { startGitHttpServer, type GitHttpServer } from '../helpers/git-http-server.js';
import { registerUser } from '../helpers/users.js';
import {
  eventually,
  fileAt,
  pageUrl,
  remoteWorkspace,
  type SyncEnv,
  startSync,
  treeOf,
} from './sync-helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON */

const PASSWORD = 'glpat-9f8e7d6c5b4a3210-secret';
const WRONG = 'wrong-password-7c1d2e3f4a';

describeEachDatabase('remote settings ($name)', (target) => {
  let env: SyncEnv;
  let http: GitHttpServer | undefined;
  afterEach(async () => {
    await http?.close();
    http = undefined;
    await env?.cleanup();
  });
  const as = (method: string, p: string, body?: unknown, token = env.owner.token) =>
    env.server.request(method, p, { token, body });

  it('pushes over HTTPS with stored credentials that are never shown, logged or stored in clear', async () => {
    const logs: string[] = [];
    const logger = createLogger('trace', { write: (line: string) => void logs.push(line) } as any);
    env = await startSync(target, { logger });
    await createBareRepo(env.tmp, 'docs');
    http = await startGitHttpServer(env.tmp, { auth: { username: 'folio-bot', password: PASSWORD } });
    const ws = await remoteWorkspace(env, `${http.url}/docs.git`);
    const bare = path.join(env.tmp, 'docs.git');
    expect((await as('POST', pageUrl(ws.slug, 'secret.md'), { title: 'Behind auth' })).status).toBe(201);
    const refused = await eventually(async () => {
      const r = await as('GET', `/api/v1/workspaces/${ws.id}`);
      return r.body.sync_status === 'error' ? r.body : null;
    });
    expect(refused.last_error).toMatch(/refused the credentials/);

    const editor = await registerUser(env.server);
    await env.server.folio.store.db
      .insertInto('workspace_members')
      .values({
        workspace_id: ws.id,
        user_id: editor.id,
        role: 'editor',
        created_at: new Date().toISOString(),
      })
      .execute();
    const creds = `/api/v1/workspaces/${ws.id}/git-credentials`;
    expect((await as('PUT', creds, { username: 'folio-bot', password: PASSWORD }, editor.token)).status).toBe(
      403,
    );
    const missing = await as('PUT', creds, { username: 'folio-bot' });
    expect(missing.status).toBe(400);
    expect(missing.body.details.field).toBe('password');

    expect((await as('PUT', creds, { username: 'folio-bot', password: WRONG })).status).toBe(200);
    const wrong = await as('POST', `/api/v1/workspaces/${ws.id}/sync`);
    expect(wrong.status).toBe(503);
    expect(wrong.body).toMatchObject({ error: 'SERVICE_UNAVAILABLE', details: { reason: 'auth' } });
    expect(wrong.text).not.toContain(WRONG);

    const saved = await as('PUT', creds, { username: 'folio-bot', password: PASSWORD });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({
      workspace_id: ws.id,
      username: 'folio-bot',
      has_password: true,
      updated_at: expect.any(String),
    });
    const sync = await as('POST', `/api/v1/workspaces/${ws.id}/sync`);
    expect(sync.status).toBe(200);
    expect(await fileAt(bare, 'secret.md')).toContain('title: Behind auth');
    const record = await as('GET', `/api/v1/workspaces/${ws.id}`);
    expect(record.body).toMatchObject({ sync_status: 'idle', last_error: null });

    // Nowhere to be read back: responses, the database row, the repository config, the logs.
    for (const text of [saved.text, record.text, (await as('GET', '/api/v1/workspaces')).text]) {
      expect(text).not.toContain(PASSWORD);
    }
    const row = await env.server.folio.store.db
      .selectFrom('workspace_sync')
      .selectAll()
      .executeTakeFirstOrThrow();
    expect(row.git_username).toBe('folio-bot');
    expect(row.git_password).not.toContain(PASSWORD);
    expect(fs.readFileSync(path.join(treeOf(env, ws.id), '.git/config'), 'utf8')).not.toContain(PASSWORD);
    const logText = logs.join('');
    expect(logText).toContain('push failed');
    expect(logText).not.toContain(PASSWORD);
    expect(logText).not.toContain(WRONG);

    // Forgetting them brings the refusal back.
    expect((await as('DELETE', creds)).status).toBe(204);
    await as('PUT', pageUrl(ws.slug, 'secret.md'), {
      body: 'changed',
      lastKnownHash: (await as('GET', pageUrl(ws.slug, 'secret.md'))).body.content_hash,
    });
    expect((await as('POST', `/api/v1/workspaces/${ws.id}/sync`)).status).toBe(503);
  });

  it('shows admins a per-workspace deploy key whose private half stays under DATA_DIR, 0600', async () => {
    env = await startSync(target);
    const ws = (await as('GET', '/api/v1/workspaces')).body.data[0];
    const key = await as('GET', `/api/v1/workspaces/${ws.id}/deploy-key`);
    expect(key.status).toBe(200);
    expect(key.body).toEqual({
      workspace_id: ws.id,
      public_key: expect.stringMatching(/^ssh-ed25519 AAAA[\w+/=]+ folio-/),
      fingerprint: expect.stringMatching(/^SHA256:[\w+/]{43}$/),
    });
    expect((await as('GET', `/api/v1/workspaces/${ws.id}/deploy-key`)).body).toEqual(key.body);
    const privateKey = path.join(env.server.dataDir, 'git-keys', ws.id, 'id_ed25519');
    expect(fs.statSync(privateKey).mode & 0o777).toBe(0o600);
    expect(privateKey.startsWith(treeOf(env, ws.id))).toBe(false);
    expect(key.text).not.toContain('PRIVATE KEY');
    // OpenSSH reads the private key and derives the same public half and fingerprint.
    const derived = execFileSync('ssh-keygen', ['-y', '-f', privateKey], { encoding: 'utf8' });
    expect(derived.split(' ').slice(0, 2)).toEqual(key.body.public_key.split(' ').slice(0, 2));
    expect(execFileSync('ssh-keygen', ['-l', '-f', privateKey], { encoding: 'utf8' })).toContain(
      key.body.fingerprint,
    );

    const editor = await registerUser(env.server);
    await env.server.folio.store.db
      .insertInto('workspace_members')
      .values({
        workspace_id: ws.id,
        user_id: editor.id,
        role: 'editor',
        created_at: new Date().toISOString(),
      })
      .execute();
    expect((await as('GET', `/api/v1/workspaces/${ws.id}/deploy-key`, undefined, editor.token)).status).toBe(
      403,
    );
  });

  it('validates remotes when a workspace is created or its remote changed, and pulls from a new one', async () => {
    env = await startSync(target, { env: { GIT_ALLOW_PRIVATE_HOSTS: 'false' } });
    const create = (git_remote: string) =>
      as('POST', '/api/v1/workspaces', {
        name: 'R',
        slug: `r-${Math.random().toString(36).slice(2, 8)}`,
        git_remote,
      });
    for (const bad of [
      'http://127.0.0.1:9/docs.git',
      'https://localhost/docs.git',
      'https://169.254.169.254/latest.git',
      'https://[64:ff9b::127.0.0.1]/docs.git',
      `file://${env.server.dataDir}/workspaces`,
      'ext::sh -c touch% /tmp/pwned',
      'git://example.com/docs.git',
      'https://user:pass@example.com/docs.git',
    ]) {
      const res = await create(bad);
      expect(res.status, bad).toBe(400);
      expect(res.body, bad).toMatchObject({ error: 'VALIDATION_ERROR', details: { field: 'git_remote' } });
    }

    const ws = (await as('GET', '/api/v1/workspaces')).body.data[0];
    const remoteUrl = `/api/v1/workspaces/${ws.id}/git-remote`;
    const refused = await as('PUT', remoteUrl, { git_remote: 'http://10.0.0.5/docs.git' });
    expect(refused.status).toBe(400);
    expect((await as('PUT', remoteUrl, { git_remote: null, git_branch: '-evil' })).status).toBe(400);
    expect((await as('PUT', remoteUrl, { git_remote: null, git_branch: 'a..b' })).status).toBe(400);

    // A remote that already has documentation: connecting pulls it in.
    const bare = await createBareRepo(env.tmp, 'existing');
    const clone = await cloneRepo(fileUrl(bare), path.join(env.tmp, 'existing-clone'), 'docs');
    await commitFile(
      clone,
      'handbook.md',
      '---\ntitle: Handbook\n---\n\nFrom the existing repository.\n',
      bob,
    );
    await pushClone(clone, 'docs');
    const connected = await as('PUT', remoteUrl, { git_remote: fileUrl(bare), git_branch: 'docs' });
    expect(connected.status).toBe(200);
    expect(connected.body).toMatchObject({ id: ws.id, git_remote: fileUrl(bare), git_branch: 'docs' });
    const page = await eventually(async () => {
      const r = await as('GET', pageUrl(ws.slug, 'handbook.md'));
      return r.status === 200 ? r.body : null;
    });
    expect(page.title).toBe('Handbook');
    // The starter page went the other way.
    await eventually(async () => fileAt(bare, 'index.md', 'docs'));
    const meta = JSON.parse(fs.readFileSync(workspaceMetaFile(env.server.dataDir, ws.id), 'utf8'));
    expect(meta).toMatchObject({ git_remote: fileUrl(bare), git_branch: 'docs' });

    // Moving to an empty repository: everything goes there (nothing is assumed from the old remote).
    const fresh = await createBareRepo(env.tmp, 'fresh', 'docs');
    expect((await as('PUT', remoteUrl, { git_remote: fileUrl(fresh) })).status).toBe(200);
    await eventually(async () =>
      (await fileAt(fresh, 'handbook.md', 'docs'))?.includes('existing repository'),
    );

    const off = await as('PUT', remoteUrl, { git_remote: null });
    expect(off.body).toMatchObject({ git_remote: null, git_branch: 'docs' });
  });
});

describe('file remotes switched off', () => {
  let env: SyncEnv;
  afterEach(() => env?.cleanup());

  it('refuses file:// and local-path remotes by default and when GIT_ALLOW_FILE_REMOTES=false', async () => {
    for (const setting of ['false', '']) {
      env = await startSync(databaseTargets()[0]!, { env: { GIT_ALLOW_FILE_REMOTES: setting } });
      const bare = await createBareRepo(env.tmp, 'docs');
      for (const remote of [fileUrl(bare), bare]) {
        const res = await env.server.request('POST', '/api/v1/workspaces', {
          token: env.owner.token,
          body: { name: 'F', slug: `f-${Math.random().toString(36).slice(2, 8)}`, git_remote: remote },
        });
        expect(res.status, setting).toBe(400);
        expect(res.body.details.field).toBe('git_remote');
      }
      await env.cleanup();
    }
  });
});

describe('local remotes confined', () => {
  let env: SyncEnv;
  afterEach(() => env?.cleanup());
  const as = (method: string, p: string, body?: unknown, token = env.owner.token) =>
    env.server.request(method, p, { token, body });

  it('lets only the platform owner connect one, below GIT_FILE_REMOTE_ROOT, without gitdir files or alternates', async () => {
    env = await startSync(databaseTargets()[0]!);
    const bare = await createBareRepo(env.tmp, 'docs');
    // Every user is Super Admin of their own organization; only the first user owns the platform.
    const tenant = await registerUser(env.server);
    const tenantWs = (await as('GET', '/api/v1/workspaces', undefined, tenant.token)).body.data[0];
    for (const remote of [fileUrl(bare), bare]) {
      const put = await as(
        'PUT',
        `/api/v1/workspaces/${tenantWs.id}/git-remote`,
        { git_remote: remote },
        tenant.token,
      );
      expect(put.status, remote).toBe(403);
      expect(put.body.error).toBe('FORBIDDEN');
      const created = await as(
        'POST',
        '/api/v1/workspaces',
        { name: 'T', slug: `t-${Math.random().toString(36).slice(2, 8)}`, git_remote: remote },
        tenant.token,
      );
      expect(created.status, remote).toBe(403);
    }

    // Git's indirections planted below the root, pointing at the owner's workspace.
    const ownerWs = (await as('GET', '/api/v1/workspaces')).body.data[0];
    const victim = treeOf(env, ownerWs.id);
    const gitdir = path.join(env.tmp, 'gitdir-file');
    fs.mkdirSync(gitdir);
    fs.writeFileSync(path.join(gitdir, '.git'), `gitdir: ${path.join(victim, '.git')}\n`);
    const borrowing = await createBareRepo(env.tmp, 'borrowing');
    fs.writeFileSync(
      path.join(borrowing, 'objects/info/alternates'),
      `${path.join(victim, '.git/objects')}\n`,
    );
    const outside = await createBareRepo(path.dirname(env.tmp), `outside-${path.basename(env.tmp)}`);
    const linked = path.join(env.tmp, 'linked.git');
    fs.symlinkSync(outside, linked);
    try {
      for (const remote of [
        gitdir,
        fileUrl(borrowing),
        outside,
        linked,
        `${env.tmp}/../${path.basename(outside)}`,
      ]) {
        const res = await as('PUT', `/api/v1/workspaces/${ownerWs.id}/git-remote`, { git_remote: remote });
        expect(res.status, remote).toBe(400);
        expect(res.body, remote).toMatchObject({
          error: 'VALIDATION_ERROR',
          details: { field: 'git_remote' },
        });
      }
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }

    const ok = await as('PUT', `/api/v1/workspaces/${ownerWs.id}/git-remote`, { git_remote: fileUrl(bare) });
    expect(ok.status).toBe(200);
    await eventually(async () => fileAt(bare, 'index.md'));
  });
});
