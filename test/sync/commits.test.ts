import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { runGit } from '../../src/git/git.js';
import { createPgAdvisoryLock, type PgAdvisoryLock } from '../../src/git/pg-lock.js';
import { createLogger } from '../../src/logger.js';
import { describeEachDatabase, type DatabaseTarget } from '../helpers/databases.js';
import { cloneRepo, createBareRepo, fileUrl } from '../helpers/git-fixtures.js';
import { startGitHttpServer, type GitHttpServer } from '../helpers/git-http-server.js';
import { startServer, type TestServer } from '../helpers/server.js';
import {
  eventually,
  fileAt,
  logLines,
  pageUrl,
  remoteWorkspace,
  type SyncEnv,
  startSync,
  treeOf,
} from './sync-helpers.js';

/** A 1x1 PNG for the upload. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

describeEachDatabase('web edits become commits ($name)', (target: DatabaseTarget) => {
  let env: SyncEnv;
  let http: GitHttpServer | undefined;
  afterEach(async () => {
    await http?.close();
    http = undefined;
    await env?.cleanup();
  });

  it('pushes each change to the remote with the user as author and a clear message', async () => {
    // The default quiet time, so the quick saves below are one batch.
    env = await startSync(target, { gitCommitDebounceMs: 1000 });
    const bare = await createBareRepo(env.tmp, 'docs');
    const ws = await remoteWorkspace(env, fileUrl(bare));
    const as = (method: string, p: string, body?: unknown) =>
      env.server.request(method, p, { token: env.owner.token, body });

    const created = await as('POST', pageUrl(ws.slug, 'guides/setup.md'), {
      title: 'Setup guide',
      body: 'Step 1',
    });
    expect(created.status).toBe(201);
    // Two quick saves after the create fall into the same batch: one commit says what happened.
    let hash = created.body.content_hash;
    for (const body of ['Step 1\nStep 2', 'Step 1\nStep 2\nStep 3']) {
      const saved = await as('PUT', pageUrl(ws.slug, 'guides/setup.md'), { body, lastKnownHash: hash });
      expect(saved.status).toBe(200);
      hash = saved.body.content_hash;
    }
    await eventually(async () => (await fileAt(bare, 'guides/setup.md'))?.includes('Step 3'));
    expect(await logLines(bare, '%s')).toEqual([
      'docs: create Setup guide',
      'docs: keep Folio metadata out of git',
    ]);

    // Later changes: each its own commit, the author checked in a clone as a user would.
    await eventually(
      async () => (await as('GET', `/api/v1/workspaces/${ws.id}`)).body.sync_status === 'idle',
    );
    const moved = await as('PATCH', pageUrl(ws.slug, 'guides/setup.md'), { new_path: 'guides/install.md' });
    expect(moved.status).toBe(200);
    await eventually(async () => (await logLines(bare, '%s')).length === 3);
    expect(await as('DELETE', pageUrl(ws.slug, 'guides/install.md'))).toMatchObject({ status: 204 });
    await eventually(async () => (await logLines(bare, '%s')).length === 4);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'pixel.png');
    const upload = await fetch(`${env.server.url}/api/v1/content/${ws.slug}/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.owner.token}` },
      body: form,
    });
    expect(upload.status).toBe(201);
    await eventually(async () => (await logLines(bare, '%s')).length === 5);

    const clone = await cloneRepo(fileUrl(bare), path.join(env.tmp, 'clone'));
    expect(await logLines(clone, '%s')).toEqual([
      'docs: upload pixel.png',
      'docs: delete guides/install.md',
      'docs: move guides/setup.md to guides/install.md',
      'docs: create Setup guide',
      'docs: keep Folio metadata out of git',
    ]);
    const authors = await logLines(clone, '%an <%ae>');
    expect(authors.slice(0, 4)).toEqual(Array(4).fill(`Olive Owner <${env.owner.email}>`));
    expect(await logLines(clone, '%cn')).toContain('Folio');
    expect(fs.readFileSync(path.join(clone, 'uploads/pixel.png'))).toEqual(PNG);
    // Folio's own metadata never leaves the server.
    expect(fs.existsSync(path.join(clone, '.folio'))).toBe(false);

    // The last push lands on the remote a moment before the workspace records it as done.
    const record = await eventually(async () => {
      const r = await as('GET', `/api/v1/workspaces/${ws.id}`);
      return r.body.sync_status === 'idle' ? r : null;
    });
    expect(record.body).toMatchObject({ sync_status: 'idle', last_error: null });
    expect(Date.parse(record.body.last_sync_at)).not.toBeNaN();
  });

  it('commits locally while the remote is down and pushes once it is back', async () => {
    env = await startSync(target);
    await createBareRepo(env.tmp, 'docs');
    http = await startGitHttpServer(env.tmp);
    const ws = await remoteWorkspace(env, `${http.url}/docs.git`);
    const bare = path.join(env.tmp, 'docs.git');
    http.setDown(true);

    const created = await env.server.request('POST', pageUrl(ws.slug, 'offline.md'), {
      token: env.owner.token,
      body: { title: 'Written offline', body: 'while the remote was down' },
    });
    expect(created.status).toBe(201);
    const failed = await eventually(async () => {
      const r = await env.server.request('GET', `/api/v1/workspaces/${ws.id}`, { token: env.owner.token });
      return r.body.sync_status === 'error' ? r.body : null;
    });
    expect(failed.last_error).toMatch(/down for maintenance/);
    expect(failed.last_error).not.toMatch(/git push/);
    expect(env.events.some((e) => e.type === 'sync-status' && e.payload.status === 'error')).toBe(true);
    // The commit is safe in the workspace repository; the remote has nothing yet.
    expect(await logLines(treeOf(env, ws.id), '%s')).toContain('docs: create Written offline');
    expect(await logLines(bare, '%s')).toEqual([]);

    http.setDown(false);
    await eventually(async () => (await fileAt(bare, 'offline.md'))?.includes('while the remote was down'));
    await eventually(async () => {
      const r = await env.server.request('GET', `/api/v1/workspaces/${ws.id}`, { token: env.owner.token });
      return r.body.sync_status === 'idle' && r.body.last_error === null;
    });
  });

  it('commits at start what a crash left uncommitted, and pushes it', async () => {
    env = await startSync(target);
    const bare = await createBareRepo(env.tmp, 'docs');
    const ws = await remoteWorkspace(env, fileUrl(bare));
    const first = await env.server.request('POST', pageUrl(ws.slug, 'a.md'), {
      token: env.owner.token,
      body: { title: 'A', body: 'first' },
    });
    expect(first.status).toBe(201);
    await eventually(async () => fileAt(bare, 'a.md'));
    await env.server.close();
    // As if the server died between writing a file and committing it.
    fs.writeFileSync(
      path.join(treeOf(env, ws.id), 'crash.md'),
      '---\ntitle: Crash\n---\n\nwritten, never committed\n',
    );

    await env.restart();
    await eventually(async () => (await fileAt(bare, 'crash.md'))?.includes('never committed'));
    expect(await logLines(bare, '%s')).toContain('docs: commit changes left uncommitted');
    const status = await runGit(treeOf(env, ws.id), ['status', '--porcelain']);
    expect(status.stdout.trim()).toBe('');
  });
});

describeEachDatabase('a git that cannot commit ($name)', (target: DatabaseTarget) => {
  let env: SyncEnv;
  afterEach(() => env?.cleanup());
  const as = (method: string, p: string, body?: unknown) =>
    env.server.request(method, p, { token: env.owner.token, body });

  it('removes at start the index.lock a crash left, then commits and pushes again', async () => {
    env = await startSync(target);
    const bare = await createBareRepo(env.tmp, 'docs');
    const ws = await remoteWorkspace(env, fileUrl(bare));
    expect((await as('POST', pageUrl(ws.slug, 'a.md'), { title: 'A' })).status).toBe(201);
    await eventually(async () => fileAt(bare, 'a.md'));
    await env.server.close();
    // As if the server and a running `git commit` died together.
    const lock = path.join(treeOf(env, ws.id), '.git', 'index.lock');
    fs.writeFileSync(lock, '');
    fs.writeFileSync(path.join(treeOf(env, ws.id), 'crash.md'), '---\ntitle: Crash\n---\n\nleft behind\n');

    await env.restart();
    await eventually(async () => (await fileAt(bare, 'crash.md'))?.includes('left behind'));
    expect(fs.existsSync(lock)).toBe(false);
    expect((await as('POST', pageUrl(ws.slug, 'b.md'), { title: 'B' })).status).toBe(201);
    await eventually(async () => fileAt(bare, 'b.md'));
    expect((await runGit(treeOf(env, ws.id), ['status', '--porcelain'])).stdout.trim()).toBe('');
    // The push lands on the remote a moment before the workspace records it as done.
    await eventually(async () => {
      const record = await as('GET', `/api/v1/workspaces/${ws.id}`);
      return record.body.sync_status === 'idle' && record.body.last_error === null;
    });
  });

  it('reports failing commits in sync_status, last_error and /api/ready until one goes through', async () => {
    env = await startSync(target);
    const ws = (await as('GET', '/api/v1/workspaces')).body.data[0];
    const tree = treeOf(env, ws.id);
    expect((await as('POST', pageUrl(ws.slug, 'first.md'), { title: 'First' })).status).toBe(201);
    await eventually(async () => (await logLines(tree, '%s')).includes('docs: create First'));

    // Another process holds the index while Folio runs: this lock is not Folio's to remove.
    const lock = path.join(tree, '.git', 'index.lock');
    fs.writeFileSync(lock, '');
    expect((await as('POST', pageUrl(ws.slug, 'second.md'), { title: 'Second' })).status).toBe(201);
    const failed = await eventually(async () => {
      const r = await as('GET', `/api/v1/workspaces/${ws.id}`);
      return r.body.sync_status === 'error' ? r.body : null;
    });
    expect(failed.last_error).toMatch(/^Committing changes failed: .*index\.lock/);
    const ready = await env.server.request('GET', '/api/ready');
    // Named as a warning: the instance still serves and saves every workspace.
    expect(ready.status).toBe(200);
    expect(ready.body.checks.commits).toMatchObject({
      status: 'warn',
      failing_workspaces: [{ workspace_id: ws.id, error: failed.last_error }],
    });

    fs.unlinkSync(lock);
    expect((await as('POST', pageUrl(ws.slug, 'third.md'), { title: 'Third' })).status).toBe(201);
    await eventually(async () => {
      const r = await as('GET', `/api/v1/workspaces/${ws.id}`);
      return r.body.sync_status === 'idle' && r.body.last_error === null;
    });
    expect((await runGit(tree, ['status', '--porcelain'])).stdout.trim()).toBe('');
    const healthy = await env.server.request('GET', '/api/ready');
    expect(healthy.status).toBe(200);
    expect(healthy.body.checks.commits).toEqual({ status: 'ok' });
  });
});

// Several instances share one PostgreSQL database and one DATA_DIR: the workspace lock must hold across them.
describeEachDatabase(
  'the workspace lock across instances ($name)',
  (target) => {
    let env: SyncEnv;
    let second: TestServer | undefined;
    afterEach(async () => {
      await second?.close();
      second = undefined;
      await env?.cleanup();
    });

    it('serialises holders of one workspace in two processes-worth of locks, not different workspaces', async () => {
      const url = process.env.TEST_DATABASE_URL!;
      const [a, b] = await Promise.all([createPgAdvisoryLock(url), createPgAdvisoryLock(url)]);
      try {
        const spans: Array<[string, number, number]> = [];
        const hold = (lock: PgAdvisoryLock, key: string, name: string) =>
          lock.run(key, async () => {
            const start = Date.now();
            await new Promise((r) => setTimeout(r, 150));
            spans.push([name, start, Date.now()]);
          });
        await Promise.all([hold(a, 'ws-1', 'a1'), hold(b, 'ws-1', 'b1'), hold(b, 'ws-2', 'b2')]);
        const span = (name: string) => spans.find((s) => s[0] === name)!;
        const [, a1s, a1e] = span('a1');
        const [, b1s, b1e] = span('b1');
        // Same workspace: one after the other, whichever won.
        expect(a1e <= b1s || b1e <= a1s).toBe(true);
        // Another workspace does not wait for either.
        expect(span('b2')[1]).toBeLessThan(Math.max(a1e, b1e) - 100);
      } finally {
        await a.close();
        await b.close();
      }
    });

    it('commits and pushes every edit when two instances write to one workspace at once', async () => {
      // Git refuses concurrent writers (index.lock); without the shared lock the instances' commits collide.
      const logs: string[] = [];
      const logger = () => createLogger('warn', { write: (line: string) => void logs.push(line) } as never);
      env = await startSync(target, { logger: logger() });
      const bare = await createBareRepo(env.tmp, 'docs');
      const ws = await remoteWorkspace(env, fileUrl(bare));
      second = await startServer({
        dataDir: env.server.dataDir,
        ...(env.pgSchema ? { pgSchema: env.pgSchema } : {}),
        env: { ...env.env, GIT_SYNC_INTERVAL: '0' },
        logger: logger(),
        rateLimits: { contentWrite: { limit: 100_000 } },
      });
      const servers = [env.server, second];
      const writes = Array.from({ length: 12 }, (_, i) =>
        servers[i % 2]!.request('POST', pageUrl(ws.slug, `multi/p${i}.md`), {
          token: env.owner.token,
          body: { title: `Page ${i}`, body: `written by instance ${i % 2}` },
        }),
      );
      for (const res of await Promise.all(writes)) expect(res.status).toBe(201);
      await eventually(async () => {
        const present = await Promise.all(
          Array.from({ length: 12 }, (_, i) => fileAt(bare, `multi/p${i}.md`)),
        );
        return present.every((t) => t !== null);
      }, 30_000);
      expect((await runGit(bare, ['fsck', '--no-progress'])).code).toBe(0);
      expect(logs.filter((l) => /failed/.test(l))).toEqual([]);
    });
  },
  { only: 'postgres' },
);
