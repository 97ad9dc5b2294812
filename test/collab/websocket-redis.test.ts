import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_REDIS_URL } from '../helpers/databases.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { firstWorkspace, joinWithLink, WsClient, wsCookie } from './collab-helpers.js';

if (!TEST_REDIS_URL)
  console.warn('[folio tests] TEST_REDIS_URL is not set: the two-instance WebSocket suite is skipped.');

/**
 * Two instances behind one Redis, on one data directory (one SQLite file in
 * WAL mode, one JWT key): events and presence emitted on one reach WebSocket
 * subscribers on the other, because both travel over the bus.
 */
describe.runIf(TEST_REDIS_URL)('WebSocket across instances (Redis bus)', () => {
  let a: TestServer;
  let b: TestServer;
  let owner: TestUser;
  let reader: TestUser;
  let ws: { id: string; slug: string };
  const clients: WsClient[] = [];

  beforeAll(async () => {
    const dataDir = tempDir();
    const env = { REDIS_URL: TEST_REDIS_URL! };
    // Redis keeps the counts of every run on this machine.
    const rateLimits = { auth: { limit: 100_000 }, registration: { limit: 100_000 } };
    a = await startServer({ dataDir, env, rateLimits });
    b = await startServer({ dataDir, env, rateLimits });
    owner = await registerUser(a);
    reader = await registerUser(a);
    ws = await firstWorkspace(a, owner);
    await joinWithLink(a, owner, ws.id, reader, 'viewer');
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await b.close();
    await a.close();
  });

  it('delivers a page event and a presence join from instance B to a subscriber on instance A', async () => {
    const watcher = await WsClient.connect(a, (await wsCookie(a, owner)).pair);
    clients.push(watcher);
    expect(await watcher.subscribe(ws.id)).toEqual({ type: 'subscribed', workspace_id: ws.id });

    // A cookie minted by A is accepted by B: both derive the key from the shared JWT key.
    const remote = await WsClient.connect(b, (await wsCookie(a, reader)).pair);
    clients.push(remote);
    expect((await remote.subscribe(ws.id)).type).toBe('subscribed');
    await watcher.waitFor((m) => m.type === 'presence-join' && m.user_id === reader.id);

    const created = await b.request('POST', `/api/v1/content/${ws.slug}/across/instances`, {
      token: owner.token,
      body: { title: 'Across' },
    });
    expect(created.status).toBe(201);
    const event = await watcher.waitFor((m) => m.type === 'page-created' && m.path === 'across/instances.md');
    expect(event).toMatchObject({ workspace_id: ws.id, actor: owner.id });
    // The subscriber on B sees it too, once.
    await remote.waitFor((m) => m.type === 'page-created' && m.path === 'across/instances.md');
    await remote.roundTrip();
    expect(remote.messages.filter((m) => m.path === 'across/instances.md')).toHaveLength(1);
  });
});
