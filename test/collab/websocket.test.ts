import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { manualClock } from '../../src/lib/clock.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { eventually } from '../helpers/eventually.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { firstWorkspace, joinWithLink, startCollab, WsClient, wsCookie } from './collab-helpers.js';

describeEachDatabase('WebSocket stream ($name)', (target) => {
  const clock = manualClock(new Date());
  let ctx: Awaited<ReturnType<typeof startCollab>>;
  let server: TestServer;
  let owner: TestUser;
  let outsider: TestUser;
  let ws: { id: string; slug: string };
  const open: WsClient[] = [];

  const connectAs = async (user: TestUser) => {
    const client = await WsClient.connect(server, (await wsCookie(server, user)).pair);
    open.push(client);
    return client;
  };

  beforeAll(async () => {
    ctx = await startCollab(target, { clock });
    server = ctx.server;
    owner = await registerUser(server);
    outsider = await registerUser(server);
    ws = await firstWorkspace(server, owner);
  });
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close()));
    await ctx.cleanup();
  });

  it('ws-token sets an HttpOnly, Secure, SameSite=Strict one-hour cookie that is not the access token', async () => {
    const { header, pair } = await wsCookie(server, owner);
    expect(header).toMatch(/HttpOnly/i);
    expect(header).toMatch(/Secure/i);
    expect(header).toMatch(/SameSite=Strict/i);
    expect(header).toMatch(/Path=\//);
    expect(header).toMatch(/Max-Age=3600/);
    const value = pair.slice('svc_ws_token='.length);
    expect(value.length).toBeGreaterThan(20);
    expect(value).not.toBe(owner.token);
    // Nor can the cookie value be used as a bearer token.
    const asBearer = await server.request('GET', '/api/auth/me', { token: value });
    expect(asBearer.status).toBe(401);

    const anonymous = await server.request('POST', '/api/auth/ws-token');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error).toBe('UNAUTHORIZED');
  });

  it('refuses the upgrade without a valid cookie (401) and from a foreign Origin (403)', async () => {
    await expect(WsClient.connect(server)).rejects.toMatchObject({ status: 401 });
    await expect(WsClient.connect(server, 'svc_ws_token=v1.e30.forged')).rejects.toMatchObject({
      status: 401,
    });
    // The access token itself is not a WebSocket cookie.
    await expect(WsClient.connect(server, `svc_ws_token=${owner.token}`)).rejects.toMatchObject({
      status: 401,
    });
    const { pair } = await wsCookie(server, owner);
    const refused = WsClient.connect(server, pair, { origin: 'https://evil.example' });
    await expect(refused).rejects.toMatchObject({ status: 403 });
    const body = await refused.catch((e: { body: string }) => JSON.parse(e.body));
    expect(body.error).toBe('FORBIDDEN');
    // Its own host is fine.
    const same = await WsClient.connect(server, pair, { origin: server.url });
    open.push(same);
    expect((await same.subscribe(ws.id)).type).toBe('subscribed');
  });

  it('delivers page-created, -updated, -moved and -deleted with workspace_id, paths, actor and at', async () => {
    const client = await connectAs(owner);
    expect(await client.subscribe(ws.slug)).toEqual({ type: 'subscribed', workspace_id: ws.id });
    const page = (method: string, path: string, body?: unknown) =>
      server.request(method, `/api/v1/content/${ws.slug}/${path}`, { token: owner.token, body });

    expect((await page('POST', 'ws/one', { title: 'One', body: 'a' })).status).toBe(201);
    const hash = (await page('GET', 'ws/one')).body.content_hash;
    expect((await page('PUT', 'ws/one', { body: 'b', lastKnownHash: hash })).status).toBe(200);
    expect((await page('PATCH', 'ws/one', { new_path: 'ws/two' })).status).toBe(200);
    expect((await page('DELETE', 'ws/two')).status).toBe(204);

    const created = await client.waitFor((m) => m.type === 'page-created' && m.path === 'ws/one.md');
    // Exactly the documented fields: the writer's commit identity (an email) and the title stay on the server.
    expect(created).toEqual({
      type: 'page-created',
      workspace_id: ws.id,
      path: 'ws/one.md',
      actor: owner.id,
      at: expect.any(String),
    });
    expect(Date.parse(created.at)).not.toBeNaN();
    expect(await client.waitFor((m) => m.type === 'page-updated' && m.path === 'ws/one.md')).toEqual({
      type: 'page-updated',
      workspace_id: ws.id,
      path: 'ws/one.md',
      actor: owner.id,
      at: expect.any(String),
    });
    expect(await client.waitFor((m) => m.type === 'page-moved')).toMatchObject({
      workspace_id: ws.id,
      old_path: 'ws/one.md',
      new_path: 'ws/two.md',
      actor: owner.id,
    });
    expect(await client.waitFor((m) => m.type === 'page-deleted')).toMatchObject({
      workspace_id: ws.id,
      path: 'ws/two.md',
      actor: owner.id,
    });
  });

  it('answers NOT_FOUND to another organization’s user and sends them no events', async () => {
    const client = await connectAs(outsider);
    const answer = await client.subscribe(ws.id);
    expect(answer).toMatchObject({ type: 'error', error: 'NOT_FOUND' });
    // A missing workspace looks the same, so existence does not leak.
    expect(await client.subscribe('01ARZ3NDEKTSV4RRFFQ69G5FAV')).toMatchObject({ error: 'NOT_FOUND' });
    const res = await server.request('POST', `/api/v1/content/${ws.slug}/ws/secret`, {
      token: owner.token,
      body: { title: 'Secret' },
    });
    expect(res.status).toBe(201);
    await client.roundTrip();
    expect(
      client.messages.filter((m) => m.type.startsWith('page-') || m.type.startsWith('presence-')),
    ).toEqual([]);
    expect(client.messages.some((m) => JSON.stringify(m).includes('ws/secret'))).toBe(false);
  });

  it('answers bad messages with a VALIDATION_ERROR and keeps the connection', async () => {
    const client = await connectAs(owner);
    client.socket.send('not json');
    await client.waitFor((m) => m.type === 'error' && m.error === 'VALIDATION_ERROR');
    client.send({ type: 'shout', workspace_id: ws.id });
    await client.waitFor((m) => m.type === 'error' && m.message.includes('subscribe'));
    await client.roundTrip();
    expect(client.closed).toBeNull();
  });

  it('joins once per user, leaves 90 s after the last heartbeat, and unsubscribe stops events', async () => {
    const second = await registerUser(server);
    await joinWithLink(server, owner, ws.id, second, 'viewer');
    const watcher = await connectAs(owner);
    await watcher.subscribe(ws.id);

    const tabA = await connectAs(second);
    const tabB = await connectAs(second);
    await tabA.subscribe(ws.id);
    await tabB.subscribe(ws.id);
    await watcher.roundTrip();
    const joins = watcher.ofType('presence-join').filter((m) => m.user_id === second.id);
    expect(joins).toEqual([
      { type: 'presence-join', workspace_id: ws.id, user_id: second.id, at: joins[0].at },
    ]);

    // Both tabs go away; nothing happens until 90 s after their last heartbeat.
    await tabA.close();
    await tabB.close();
    clock.advance(89_000);
    await watcher.roundTrip(); // the watcher's heartbeat keeps it present
    await server.folio.hub.sweep();
    await watcher.roundTrip();
    expect(watcher.ofType('presence-leave').filter((m) => m.user_id === second.id)).toEqual([]);

    clock.advance(2_000);
    await watcher.roundTrip();
    await server.folio.hub.sweep();
    const leave = await watcher.waitFor((m) => m.type === 'presence-leave' && m.user_id === second.id);
    expect(leave).toMatchObject({ workspace_id: ws.id, user_id: second.id });
    expect(watcher.closed).toBeNull();

    // Unsubscribed: later events are not sent.
    watcher.send({ type: 'unsubscribe', workspace_id: ws.id });
    await watcher.waitFor((m) => m.type === 'unsubscribed');
    const res = await server.request('POST', `/api/v1/content/${ws.slug}/ws/after-unsub`, {
      token: owner.token,
      body: { title: 'After' },
    });
    expect(res.status).toBe(201);
    await watcher.roundTrip();
    expect(watcher.messages.some((m) => m.path === 'ws/after-unsub.md')).toBe(false);
  });

  it('terminates a socket that stays silent past the timeout and announces the leave', async () => {
    const quiet = await registerUser(server);
    await joinWithLink(server, owner, ws.id, quiet, 'viewer');
    const watcher = await connectAs(owner);
    await watcher.subscribe(ws.id);
    const silent = await connectAs(quiet);
    await silent.subscribe(ws.id);
    await watcher.waitFor((m) => m.type === 'presence-join' && m.user_id === quiet.id);
    clock.advance(90_000);
    await watcher.roundTrip();
    await server.folio.hub.sweep();
    await watcher.waitFor((m) => m.type === 'presence-leave' && m.user_id === quiet.id);
    await silent.waitFor(() => silent.closed !== null).catch(() => undefined);
    expect(silent.closed).not.toBeNull();
  });

  it('unsubscribes everyone from a deleted workspace', async () => {
    const created = await server.request('POST', '/api/v1/workspaces', {
      token: owner.token,
      body: { name: 'Doomed', slug: `doomed-${Date.now()}` },
    });
    expect(created.status).toBe(201);
    const client = await connectAs(owner);
    await client.subscribe(created.body.id);
    expect(
      (await server.request('DELETE', `/api/v1/workspaces/${created.body.id}`, { token: owner.token }))
        .status,
    ).toBe(204);
    await server.folio.hub.sweep();
    expect(await client.waitFor((m) => m.type === 'unsubscribed')).toEqual({
      type: 'unsubscribed',
      workspace_id: created.body.id,
      reason: 'workspace_deleted',
    });
    server.folio.events.emit('page-created', { workspace_id: created.body.id, path: 'late.md', actor: null });
    await client.roundTrip();
    expect(client.messages.some((m) => m.path === 'late.md')).toBe(false);
  });

  it('drops a client that does not read instead of buffering without bound', async () => {
    const slow = await connectAs(owner);
    await slow.subscribe(ws.id);
    // Stop reading: the kernel buffers fill, then the server-side queue grows.
    (slow.socket as unknown as { _socket: { pause(): void } })._socket.pause();
    const big = 'x'.repeat(256 * 1024);
    const before = server.folio.hub.stats().sockets;
    for (let i = 0; i < 200 && server.folio.hub.stats().sockets === before; i++) {
      server.folio.events.emit('bulk-sync', { workspace_id: ws.id, changed_count: 1, paths: [big] });
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(server.folio.hub.stats().sockets).toBe(before - 1);
  });
});

describe('WebSocket protocol errors', () => {
  it('logs a malformed frame as the client’s fault (warn), not as a failure of Folio', async () => {
    const lines: string[] = [];
    const logger = createLogger('warn', { write: (line: string) => void lines.push(line) } as never);
    const server = await startServer({ logger });
    try {
      const user = await registerUser(server);
      const client = await WsClient.connect(server, (await wsCookie(server, user)).pair);
      // A masked client frame with the reserved opcode 0x3 and no payload.
      const raw = (client.socket as unknown as { _socket: { write(b: Buffer): void } })._socket;
      raw.write(Buffer.from([0x83, 0x80, 0, 0, 0, 0]));
      await eventually(async () => client.closed !== null);
      await eventually(async () => lines.length > 0);
      const logged = lines.map((l) => JSON.parse(l) as { level: number; msg: string });
      expect(logged.filter((l) => l.level >= 50)).toEqual([]);
      expect(logged).toContainEqual(
        expect.objectContaining({ level: 40, msg: 'websocket connection failed' }),
      );
    } finally {
      await server.close();
    }
  });
});
