/**
 * Page presence and comment events over the real WebSocket, and the members'
 * directory over HTTP: additive to the documented events (`viewing`, `presence-snapshot`,
 * `presence-update`, `comment-changed`) and 4.5 (`GET /workspaces/:id/members`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_REDIS_URL } from '../helpers/databases.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { firstWorkspace, joinWithLink, WsClient, wsCookie } from './collab-helpers.js';

const rateLimits = { auth: { limit: 100_000 }, contentWrite: { limit: 100_000 } };

/** A connected, subscribed client of `user` on `server`, closed by `open`'s owner. */
async function subscribed(server: TestServer, user: TestUser, workspaceId: string, open: WsClient[]) {
  const client = await WsClient.connect(server, (await wsCookie(server, user)).pair);
  open.push(client);
  expect(await client.subscribe(workspaceId)).toMatchObject({ type: 'subscribed' });
  return client;
}

const updatesOf = (client: WsClient, userId: string) =>
  client.ofType('presence-update').filter((m) => m.user_id === userId);

describe('Page presence, comment events and the members directory', () => {
  let server: TestServer;
  let owner: TestUser;
  let writer: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let ws: { id: string; slug: string };
  const open: WsClient[] = [];

  beforeAll(async () => {
    server = await startServer({ rateLimits });
    owner = await registerUser(server, { name: 'Olive Owner' });
    writer = await registerUser(server, { name: 'Wanda Writer' });
    reader = await registerUser(server, { name: 'Rita Reader' });
    outsider = await registerUser(server);
    ws = await firstWorkspace(server, owner);
    await joinWithLink(server, owner, ws.id, writer, 'commenter');
    await joinWithLink(server, owner, ws.id, reader, 'viewer');
    for (const path of ['presence/one', 'presence/two']) {
      const res = await server.request('POST', `/api/v1/content/${ws.slug}/${path}`, {
        token: owner.token,
        body: { title: path },
      });
      expect(res.status).toBe(201);
    }
  });
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close()));
    await server.close();
  });

  it('announces the page each user views, snapshots it for newcomers, and clears it when the tab goes', async () => {
    const watcher = await subscribed(server, owner, ws.id, open);
    expect(watcher.ofType('presence-snapshot')).toEqual([
      expect.objectContaining({ workspace_id: ws.id, users: [] }),
    ]);

    const tab = await subscribed(server, writer, ws.id, open);
    tab.send({ type: 'viewing', workspace_id: ws.id, path: 'presence/one.md' });
    await watcher.waitFor((m) => m.type === 'presence-update' && m.path === 'presence/one.md');
    expect(updatesOf(watcher, writer.id)).toEqual([
      {
        type: 'presence-update',
        workspace_id: ws.id,
        user_id: writer.id,
        name: 'Wanda Writer',
        path: 'presence/one.md',
        at: expect.any(String),
      },
    ]);

    // Saying the same page again changes nothing; a second tab on another page moves the user there.
    tab.send({ type: 'viewing', workspace_id: ws.id, path: 'presence/one' });
    const second = await subscribed(server, writer, ws.id, open);
    second.send({ type: 'viewing', workspace_id: ws.id, path: 'presence/two.md' });
    await watcher.waitFor((m) => m.type === 'presence-update' && m.path === 'presence/two.md');
    expect(updatesOf(watcher, writer.id).map((m) => m.path)).toEqual(['presence/one.md', 'presence/two.md']);

    const newcomer = await subscribed(server, owner, ws.id, open);
    expect(newcomer.ofType('presence-snapshot')[0].users).toEqual([
      { user_id: writer.id, name: 'Wanda Writer', path: 'presence/two.md' },
    ]);

    // Closing the newer tab falls back to the older one's page; closing both leaves no page at
    // once, while workspace presence (the API's 90 s timeout) has no leave yet.
    await second.close();
    await watcher.waitFor((m) => updatesOf(watcher, writer.id).length === 3 && m.path === 'presence/one.md');
    await tab.close();
    await watcher.waitFor((m) => m.type === 'presence-update' && m.user_id === writer.id && m.path === null);
    await watcher.roundTrip();
    expect(updatesOf(watcher, writer.id).map((m) => m.path)).toEqual([
      'presence/one.md',
      'presence/two.md',
      'presence/one.md',
      null,
    ]);
    expect(watcher.ofType('presence-leave')).toEqual([]);
  });

  it('answers VALIDATION_ERROR to viewing an unsubscribed workspace or a bad path', async () => {
    const client = await WsClient.connect(server, (await wsCookie(server, outsider)).pair);
    open.push(client);
    client.send({ type: 'viewing', workspace_id: ws.id, path: 'presence/one.md' });
    await client.waitFor((m) => m.type === 'error' && m.error === 'VALIDATION_ERROR');

    const watcher = await subscribed(server, owner, ws.id, open);
    const tab = await subscribed(server, reader, ws.id, open);
    tab.send({ type: 'viewing', workspace_id: ws.id, path: '../etc/passwd' });
    await tab.waitFor((m) => m.type === 'error' && m.error === 'VALIDATION_ERROR');
    await watcher.roundTrip();
    expect(updatesOf(watcher, reader.id)).toEqual([]);
    expect(updatesOf(watcher, outsider.id)).toEqual([]);
  });

  it('tells the workspace’s subscribers when a page’s comments change', async () => {
    const watcher = await subscribed(server, owner, ws.id, open);
    const created = await server.request('POST', `/api/v1/workspaces/${ws.id}/comments`, {
      token: writer.token,
      body: { page: 'presence/one.md', body: 'Looks good' },
    });
    expect(created.status).toBe(201);
    expect(await watcher.waitFor((m) => m.type === 'comment-changed')).toMatchObject({
      workspace_id: ws.id,
      path: 'presence/one.md',
      comment_id: created.body.id,
      actor: writer.id,
    });
    const resolved = await server.request('POST', `/api/v1/comments/${created.body.id}/resolve`, {
      token: owner.token,
    });
    expect(resolved.status).toBe(200);
    await watcher.waitFor((m) => m.type === 'comment-changed' && m.actor === owner.id);
  });

  it('lists names and handles to commenters and up, never emails; viewers 403, strangers 404', async () => {
    const res = await server.request('GET', `/api/v1/workspaces/${ws.id}/members`, { token: writer.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [
        { user_id: owner.id, name: 'Olive Owner', handle: owner.handle },
        { user_id: reader.id, name: 'Rita Reader', handle: reader.handle },
        { user_id: writer.id, name: 'Wanda Writer', handle: writer.handle },
      ],
      next_cursor: null,
    });
    const asViewer = await server.request('GET', `/api/v1/workspaces/${ws.id}/members`, {
      token: reader.token,
    });
    expect(asViewer.status).toBe(403);
    expect(asViewer.body.error).toBe('FORBIDDEN');
    const asStranger = await server.request('GET', `/api/v1/workspaces/${ws.id}/members`, {
      token: outsider.token,
    });
    expect(asStranger.status).toBe(404);
    expect(asStranger.body.error).toBe('NOT_FOUND');
  });
});

describe.runIf(TEST_REDIS_URL)('Page presence across instances (Redis bus)', () => {
  let a: TestServer;
  let b: TestServer;
  let owner: TestUser;
  let writer: TestUser;
  let ws: { id: string; slug: string };
  const open: WsClient[] = [];

  beforeAll(async () => {
    const dataDir = tempDir();
    const env = { REDIS_URL: TEST_REDIS_URL! };
    a = await startServer({ dataDir, env, rateLimits });
    b = await startServer({ dataDir, env, rateLimits });
    owner = await registerUser(a);
    writer = await registerUser(a, { name: 'Bea Across' });
    ws = await firstWorkspace(a, owner);
    await joinWithLink(a, owner, ws.id, writer, 'editor');
  });
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close()));
    await b.close();
    await a.close();
  });

  it('a page viewed on instance B is announced and snapshotted on instance A', async () => {
    const watcher = await subscribed(a, owner, ws.id, open);
    const tab = await subscribed(b, writer, ws.id, open);
    tab.send({ type: 'viewing', workspace_id: ws.id, path: 'index.md' });
    await watcher.waitFor((m) => m.type === 'presence-update' && m.user_id === writer.id);
    const newcomer = await subscribed(a, owner, ws.id, open);
    expect(newcomer.ofType('presence-snapshot')[0].users).toEqual([
      { user_id: writer.id, name: 'Bea Across', path: 'index.md' },
    ]);
  });
});
