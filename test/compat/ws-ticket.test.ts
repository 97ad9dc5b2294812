/**
 * Layout C's WebSocket tickets through real HTTP and WebSocket, on both databases:
 * `POST /api/v1/auth/ws-ticket` answers `{ ticket, expires_in: 30 }`, `/ws?ticket=` opens a
 * socket that receives events, a ticket opens one socket only and not after 30 seconds,
 * API keys get none, and (PostgreSQL) a ticket from one instance opens a socket on another.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { configFrom } from '../../src/config.js';
import { manualClock } from '../../src/lib/clock.js';
import { createFolio } from '../../src/main.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { request, type TestServer, testEnv } from '../helpers/server.js';
import { firstWorkspace, registerUser, type TestUser } from '../helpers/users.js';
import { expectDeprecated, startOn } from './compat-helpers.js';

/** Opens `/ws?ticket=`; the HTTP status when the upgrade is refused. */
function openWithTicket(baseUrl: string, ticket: string): Promise<WebSocket | number> {
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws?ticket=${encodeURIComponent(ticket)}`);
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    socket.once('error', reject);
  });
}

/** The next message of `type` on a socket. */
function next(socket: WebSocket, type: string): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const listener = (data: WebSocket.RawData) => {
      const message = JSON.parse(String(data)) as Record<string, unknown>;
      if (message.type !== type) return;
      socket.off('message', listener);
      resolve(message);
    };
    socket.on('message', listener);
  });
}

describeEachDatabase('Layout C WebSocket tickets ($name)', (target) => {
  const clock = manualClock(new Date());
  let server: TestServer;
  let cleanup: () => Promise<void>;
  let user: TestUser;
  let pgSchema: string | undefined;
  let dbEnv: Record<string, string> = {};

  beforeAll(async () => {
    const db = await target.prepare();
    pgSchema = db.pgSchema;
    dbEnv = db.env;
    ({ server } = await startOn(
      { name: target.name, prepare: async () => ({ ...db, cleanup: async () => {} }) },
      { clock },
    ));
    cleanup = async () => {
      await server.close();
      await db.cleanup();
    };
    user = await registerUser(server);
  });
  afterAll(async () => cleanup?.());

  const newTicket = async () => {
    const res = await server.request('POST', '/api/v1/auth/ws-ticket', { token: user.token });
    expect(res.status).toBe(200);
    return res;
  };

  it('issues a 30-second ticket that opens one socket, which receives events', async () => {
    const res = await newTicket();
    expectDeprecated(res, '/api/auth/ws-token');
    expect(Object.keys(res.body).sort()).toEqual(['expires_in', 'ticket']);
    expect(res.body.expires_in).toBe(30);

    const socket = await openWithTicket(server.url, res.body.ticket);
    expect(socket).toBeInstanceOf(WebSocket);
    const ws = socket as WebSocket;
    const workspace = await firstWorkspace(server, user);
    ws.send(JSON.stringify({ type: 'subscribe', workspace_id: workspace.id }));
    await next(ws, 'subscribed');
    const created = next(ws, 'page-created');
    await server.request('POST', `/api/v1/content/${workspace.slug}/ticket.md`, {
      token: user.token,
      body: { title: 'Ticket' },
    });
    expect(await created).toMatchObject({ workspace_id: workspace.id, path: 'ticket.md' });
    ws.close();

    // Single use.
    expect(await openWithTicket(server.url, res.body.ticket)).toBe(401);
  });

  it('refuses an expired or unknown ticket, and gives API keys none', async () => {
    const res = await newTicket();
    clock.advance(31_000);
    expect(await openWithTicket(server.url, res.body.ticket)).toBe(401);
    expect(await openWithTicket(server.url, 'wst_not-a-ticket')).toBe(401);

    const key = await server.request('POST', '/api/v1/api-keys', { token: user.token, body: { name: 'ci' } });
    const refused = await server.request('POST', '/api/v1/auth/ws-ticket', { token: key.body.key });
    expect(refused.status).toBe(403);
  });

  // Only a shared PostgreSQL has other instances: a SQLite DATA_DIR serves one Folio.
  if (target.name === 'postgres')
    it('opens a socket on another instance sharing the database', async () => {
      const other = await createFolio(configFrom({ ...testEnv(server.dataDir), ...dbEnv }), {
        ...(pgSchema ? { pgSchema } : {}),
      });
      try {
        const url = (await other.listen()).replace('0.0.0.0', '127.0.0.1');
        const res = await newTicket();
        const socket = await openWithTicket(url, res.body.ticket);
        expect(socket).toBeInstanceOf(WebSocket);
        (socket as WebSocket).close();
        // Spent there, so refused here.
        expect(await openWithTicket(server.url, res.body.ticket)).toBe(401);
        expect((await request(url, 'GET', '/api/auth/me', { token: user.token })).status).toBe(200);
      } finally {
        await other.close();
      }
    });
});
