/**
 * After an unclean stop, the start-up sweep commits (as Folio) only what was left
 * uncommitted when it started; an edit a user makes after the restart, or through
 * another instance while the sweep waits for its turn, is committed under that user.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ulid } from 'ulid';
import { afterAll, describe, expect, it } from 'vitest';
import { configFrom } from '../../src/config.js';
import { createFolio, type Folio } from '../../src/main.js';
import { describeEachDatabase, TEST_REDIS_URL } from '../helpers/databases.js';
import { eventually } from '../helpers/eventually.js';
import { serverProcess, type ServerProcess } from '../helpers/server-process.js';
import { request, type RequestOptions, tempDir, testEnv, type TestServer } from '../helpers/server.js';
import { firstWorkspace, registerUser } from '../helpers/users.js';
import { commitsWithFiles as history, treeStatus } from './sync-helpers.js';

describe('the start-up sweep after a SIGKILL', () => {
  let killable: ServerProcess | undefined;
  afterAll(async () => {
    await killable?.kill();
  });

  it('commits only what was left uncommitted; the first edit after the restart is its author’s', async () => {
    killable = await serverProcess();
    const server = killable as unknown as TestServer;
    await killable.start();
    const owner = await registerUser(server, { name: 'Olive Owner' });
    const ws = await firstWorkspace(server, owner);
    const tree = path.join(killable.dataDir, 'workspaces', ws.id);
    const as = (method: string, p: string, body?: unknown) =>
      server.request(method, `/api/v1/content/${ws.slug}/${p}`, { token: owner.token, body });

    // Saved, then the server dies inside the 1 s quiet time before the commit.
    expect((await as('POST', 'left.md', { title: 'Left behind', body: 'never committed' })).status).toBe(201);
    await killable.kill();
    expect(await treeStatus(tree)).toContain('left.md');

    await killable.start();
    expect((await as('POST', 'after.md', { title: 'After the restart', body: 'mine' })).status).toBe(201);
    await eventually(async () => (await history(tree)).some((c) => c.files.includes('after.md')));
    await eventually(async () => (await treeStatus(tree)) === '');

    const commits = await history(tree);
    const mine = commits.filter((c) => c.files.includes('after.md'));
    expect(mine).toEqual([
      { subject: 'docs: create After the restart', author: 'Olive Owner', files: ['after.md'] },
    ]);
    const sweep = commits.filter((c) => c.subject === 'docs: commit changes left uncommitted');
    expect(sweep).toHaveLength(1);
    expect(sweep[0]!.author).toBe('Folio');
    expect(sweep[0]!.files).toContain('left.md');
    expect(sweep[0]!.files).not.toContain('after.md');
  }, 60_000);
});

describeEachDatabase(
  'the start-up sweep beside another instance ($name)',
  (target) => {
    const started: Folio[] = [];
    let cleanup: (() => Promise<void>) | undefined;
    afterAll(async () => {
      await Promise.all(started.map((f) => f.close()));
      await cleanup?.();
    });

    it.runIf(TEST_REDIS_URL)(
      'leaves alone an edit another instance acknowledged after the sweep started',
      async () => {
        const db = await target.prepare();
        cleanup = db.cleanup;
        const dataDir = tempDir();
        const config = configFrom({ ...testEnv(dataDir), ...db.env, REDIS_URL: TEST_REDIS_URL! });
        const options = {
          pgSchema: db.pgSchema!,
          gitCommitDebounceMs: 100,
          rateLimits: { registration: { limit: 1_000_000 } },
        };
        const running = await createFolio(config, options);
        started.push(running);
        const url = (await running.listen()).replace('0.0.0.0', '127.0.0.1');
        const server = { request: (m: string, p: string, o?: RequestOptions) => request(url, m, p, o) };
        const owner = await registerUser(server, { name: 'Olive Owner' });
        const ws = await firstWorkspace(server, owner);
        const tree = path.join(dataDir, 'workspaces', ws.id);
        // Written by an instance that died before committing it.
        const left = `---\nid: ${ulid()}\ntitle: Left behind\n---\n\nnever committed\n`;
        fs.writeFileSync(path.join(tree, 'left.md'), left);

        // The repository is busy (held here, as a long commit of the running instance would)
        // while a second instance starts: its sweep waits for its turn to commit.
        let release!: () => void;
        const held = new Promise<void>((resolve) => {
          void running.runtime.workspaceLock.run(`git:${ws.id}`, async () => {
            resolve();
            await new Promise<void>((r) => (release = r));
          });
        });
        await held;
        const second = await createFolio(config, options);
        started.push(second);
        await second.listen();
        const page = `/api/v1/content/${ws.slug}/index.md`;
        const hash = (await server.request('GET', page, { token: owner.token })).body.content_hash;
        const saved = await server.request('PUT', page, {
          token: owner.token,
          body: { body: 'Edited after the second instance started.', lastKnownHash: hash },
        });
        expect(saved.status).toBe(200);
        release();

        await eventually(async () => (await treeStatus(tree)) === '');
        const commits = await history(tree);
        expect(commits.filter((c) => c.subject === 'docs: commit changes left uncommitted')).toEqual([
          { subject: 'docs: commit changes left uncommitted', author: 'Folio', files: ['left.md'] },
        ]);
        expect(commits.filter((c) => c.subject === 'docs: update Welcome to Folio')).toEqual([
          { subject: 'docs: update Welcome to Folio', author: 'Olive Owner', files: ['index.md'] },
        ]);
      },
      60_000,
    );
  },
  { only: 'postgres' },
);
