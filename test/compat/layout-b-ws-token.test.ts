/**
 * Layout B's WebSocket cookie through real HTTP and WebSocket: `POST /api/auth/ws-token` with
 * `Folio-Layout: B` answers 200 with no body and a 30-second `svc_ws_token` cookie that opens
 * one socket only, and not once expired; without the header the current 204 and one-hour
 * cookie are unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { WsClient } from '../collab/collab-helpers.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { firstWorkspace, registerUser, type TestUser } from '../helpers/users.js';
import { expectCurrent, expectDeprecated } from './compat-helpers.js';

/** `POST /api/auth/ws-token`: the status, body text, raw Set-Cookie and the `name=value` pair. */
async function wsToken(server: TestServer, user: TestUser, headers: Record<string, string> = {}) {
  const res = await server.request('POST', '/api/auth/ws-token', { token: user.token, headers });
  const header = res.headers.getSetCookie().find((c) => c.startsWith('svc_ws_token=')) ?? '';
  return { res, header, pair: header.split(';')[0]! };
}

/** The HTTP status of a refused upgrade (0 if the socket opened). */
async function refusal(server: TestServer, cookie: string): Promise<number> {
  try {
    (await WsClient.connect(server, cookie)).socket.close();
    return 0;
  } catch (error) {
    return (error as { status?: number }).status ?? -1;
  }
}

describe('Layout B ws-token', () => {
  const clock = manualClock(new Date());
  let server: TestServer;
  let user: TestUser;

  beforeAll(async () => {
    server = await startServer({ clock });
    user = await registerUser(server);
  });
  afterAll(async () => server?.close());

  it('answers 200 with no body and a 30-second cookie that opens one socket', async () => {
    const { res, header, pair } = await wsToken(server, user, { 'Folio-Layout': 'B' });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expectDeprecated(res, '/api/auth/ws-token');
    expect(header).toMatch(/^svc_ws_token=wst_/);
    expect(header).toMatch(/; Max-Age=30(;|$)/);
    expect(header).toMatch(/; HttpOnly/);
    expect(header).toMatch(/; Secure/);
    expect(header).toMatch(/; SameSite=Strict/);

    const client = await WsClient.connect(server, pair);
    const workspace = await firstWorkspace(server, user);
    expect(await client.subscribe(workspace.id)).toMatchObject({ type: 'subscribed' });
    client.socket.close();

    // Spent by the first upgrade: refused as an unauthenticated upgrade is.
    expect(await refusal(server, pair)).toBe(401);
  });

  it('accepts the cookie for 30 seconds and refuses it after', async () => {
    const early = await wsToken(server, user, { 'Folio-Layout': 'B' });
    const late = await wsToken(server, user, { 'Folio-Layout': 'B' });
    clock.advance(29_000);
    expect(await refusal(server, early.pair)).toBe(0);
    clock.advance(2_000);
    expect(await refusal(server, late.pair)).toBe(401);
  });

  it('answers the current 204 and one-hour cookie without the header', async () => {
    const { res, header, pair } = await wsToken(server, user);
    expect(res.status).toBe(204);
    expectCurrent(res);
    expect(header).toMatch(/; Max-Age=3600(;|$)/);
    expect(header).not.toMatch(/^svc_ws_token=wst_/);
    // Reusable for its hour, as today.
    expect(await refusal(server, pair)).toBe(0);
    expect(await refusal(server, pair)).toBe(0);
  });
});
