/**
 * Ready means ready: after a restart, `/api/ready` answers 503 with a `reconciling` check
 * until start-up reconciliation has indexed the files found on disk, and then every one
 * of them can be read.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it, describe } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { registerUser } from '../helpers/users.js';

/** Enough files that indexing them takes a visible while on any machine. */
const FILES = 1500;

describe('readiness during start-up reconciliation', () => {
  let server: TestServer | undefined;
  afterAll(() => server?.close());

  it('answers 503 while files written during downtime are indexed, then 200 with all of them', async () => {
    const first = await startServer();
    const owner = await registerUser(first);
    const ws = (await first.request('GET', '/api/v1/workspaces', { token: owner.token })).body.data[0];
    await first.close();

    // Files written while Folio was down, as a git pull or an editor on the server would.
    const folder = path.join(first.dataDir, 'workspaces', ws.id, 'imported');
    fs.mkdirSync(folder, { recursive: true });
    for (let i = 0; i < FILES; i++) {
      fs.writeFileSync(path.join(folder, `page-${i}.md`), `---\ntitle: Imported ${i}\n---\n\nBody ${i}.\n`);
    }

    server = await startServer({ dataDir: first.dataDir, beforeReady: true });
    const early = await server.request('GET', '/api/ready');
    expect(early.status).toBe(503);
    expect(early.body.status).toBe('unavailable');
    expect(early.body.checks.reconciling).toMatchObject({ status: 'fail', done: expect.any(Number) });
    expect(early.body.checks.database.status).toBe('ok');

    const ready = await eventually(async () => {
      const res = await server!.request('GET', '/api/ready');
      return res.status === 200 ? res : null;
    }, 120_000);
    expect(ready.body.checks.reconciling).toEqual({ status: 'ok' });
    // Ready means every file is indexed: the last one is found by search and by path.
    const last = await server.request('GET', `/api/v1/content/${ws.slug}/imported/page-${FILES - 1}.md`, {
      token: owner.token,
    });
    expect(last.status).toBe(200);
    const tree = await server.request('GET', `/api/v1/content/${ws.slug}/tree`, { token: owner.token });
    const imported = tree.body.tree.find((node: { name: string }) => node.name === 'imported');
    expect(imported.children).toHaveLength(FILES);
  }, 180_000);
});
