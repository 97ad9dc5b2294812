import WebSocket from 'ws';
import type { DatabaseTarget } from '../helpers/databases.js';
import { startServer, type StartOptions, type TestServer } from '../helpers/server.js';
import type { TestUser } from '../helpers/users.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON */

/** Starts Folio on a database target with limits that a busy suite does not trip. */
export async function startCollab(
  target: DatabaseTarget,
  options: StartOptions = {},
): Promise<{ server: TestServer; cleanup(): Promise<void> }> {
  const db = await target.prepare();
  const server = await startServer({
    ...options,
    env: { ...db.env, ...options.env },
    ...(db.pgSchema ? { pgSchema: db.pgSchema } : {}),
    rateLimits: {
      auth: { limit: 100_000 },
      contentRead: { limit: 100_000 },
      contentWrite: { limit: 100_000 },
    },
  });
  return {
    server,
    async cleanup() {
      await server.close();
      await db.cleanup();
    },
  };
}

export { firstWorkspace } from '../helpers/users.js';

/** Accepts an invitation or uses a share link so `user` gets `role` the way real users do. */
export async function joinWithLink(
  server: Pick<TestServer, 'request'>,
  admin: TestUser,
  workspaceId: string,
  user: TestUser,
  role: string,
): Promise<void> {
  const link = await server.request('POST', `/api/v1/workspaces/${workspaceId}/share-links`, {
    token: admin.token,
    body: { role, max_uses: 1 },
  });
  if (link.status !== 201) throw new Error(`share link failed: ${link.status} ${link.text}`);
  const used = await server.request('POST', `/api/v1/share-links/${link.body.token}/use`, {
    token: user.token,
  });
  if (used.status !== 200) throw new Error(`join failed: ${used.status} ${used.text}`);
}

/** `POST /api/auth/ws-token` as `user`; answers the raw Set-Cookie header and the `name=value` pair. */
export async function wsCookie(
  server: TestServer,
  user: TestUser,
): Promise<{ header: string; pair: string }> {
  const res = await fetch(`${server.url}/api/auth/ws-token`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}` },
  });
  if (res.status !== 204) throw new Error(`ws-token failed: ${res.status} ${await res.text()}`);
  const header = res.headers.getSetCookie().find((c) => c.startsWith('svc_ws_token=')) ?? '';
  return { header, pair: header.split(';')[0]! };
}

/** A WebSocket test client that keeps every message it receives. */
export class WsClient {
  readonly messages: any[] = [];
  private waiters: Array<() => void> = [];
  closed: { code: number } | null = null;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.messages.push(JSON.parse(String(data)));
      this.waiters.splice(0).forEach((wake) => wake());
    });
    socket.on('close', (code) => {
      this.closed = { code };
      this.waiters.splice(0).forEach((wake) => wake());
    });
  }

  /** Connects with the cookie pair; rejects with the HTTP status when the upgrade is refused. */
  static connect(
    server: TestServer,
    cookie?: string,
    headers: Record<string, string> = {},
  ): Promise<WsClient> {
    const url = server.url.replace(/^http/, 'ws') + '/ws';
    const socket = new WebSocket(url, { headers: { ...(cookie ? { cookie } : {}), ...headers } });
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new WsClient(socket)));
      socket.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () =>
          reject(Object.assign(new Error(`refused ${res.statusCode}`), { status: res.statusCode, body })),
        );
      });
      socket.once('error', reject);
    });
  }

  send(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }

  /** The first message (from the start) matching `predicate`, waiting for it to arrive. */
  async waitFor(predicate: (m: any) => boolean, timeoutMs = 5000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(predicate);
      if (found) return found;
      if (Date.now() > deadline) {
        throw new Error(`no matching message; got ${JSON.stringify(this.messages)}`);
      }
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  /** Subscribes and waits for the answer (`subscribed` or `error`). */
  async subscribe(workspaceId: string): Promise<any> {
    const before = this.messages.length;
    this.send({ type: 'subscribe', workspace_id: workspaceId });
    await this.waitFor(
      (m) => this.messages.indexOf(m) >= before && (m.type === 'subscribed' || m.type === 'error'),
    );
    return this.messages.slice(before).find((m) => m.type === 'subscribed' || m.type === 'error');
  }

  /** Round-trips an application ping, proving every earlier message has been processed. */
  async roundTrip(): Promise<void> {
    const before = this.messages.length;
    this.send({ type: 'ping' });
    await this.waitFor((m) => m.type === 'pong' && this.messages.indexOf(m) >= before);
  }

  ofType(type: string): any[] {
    return this.messages.filter((m) => m.type === type);
  }

  /** Closes cleanly, or tears the connection down when the peer does not answer within a second. */
  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const force = setTimeout(() => this.socket.terminate(), 1000);
      this.socket.once('close', () => {
        clearTimeout(force);
        resolve();
      });
      this.socket.close();
    });
  }
}
