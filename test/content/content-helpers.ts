import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import pg from 'pg';
import type { Role } from '../../src/domain/policy.js';
import type { DatabaseTarget } from '../helpers/databases.js';
import { startServer, type StartOptions, type TestResponse, type TestServer } from '../helpers/server.js';
import type { TestUser } from '../helpers/users.js';

/** A started server on one database target, restartable on the same DATA_DIR and database. */
export interface ContentServer {
  server: TestServer;
  /** Stops the server (keeping DATA_DIR and the database). */
  stop(): Promise<void>;
  /** Starts it again on the same DATA_DIR and database. */
  restart(extra?: StartOptions): Promise<TestServer>;
  /** Environment for `runCli` that reaches the same DATA_DIR and database. */
  cliEnv(): Record<string, string>;
  cleanup(): Promise<void>;
}

/** Starts Folio on `target` with generous rate limits (suites fire many writes). */
export async function startOn(target: DatabaseTarget, options: StartOptions = {}): Promise<ContentServer> {
  const db = await target.prepare();
  const base: StartOptions = {
    ...options,
    env: { ...db.env, ...options.env },
    ...(db.pgSchema ? { pgSchema: db.pgSchema } : {}),
    rateLimits: { contentRead: { limit: 100_000 }, contentWrite: { limit: 100_000 } },
  };
  let server = await startServer(base);
  const dataDir = server.dataDir;
  const handle: ContentServer = {
    server,
    stop: () => server.close(),
    async restart(extra = {}) {
      server = await startServer({ ...base, ...extra, env: { ...base.env, ...extra.env }, dataDir });
      handle.server = server;
      return server;
    },
    cliEnv() {
      const env: Record<string, string> = { DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
      if (db.env.DATABASE_URL) {
        // The CLI has no schema option; PostgreSQL takes the search path from the URL.
        const url = new URL(db.env.DATABASE_URL);
        url.searchParams.set('options', `-c search_path=${db.pgSchema}`);
        env.DATABASE_URL = url.toString();
      }
      return env;
    },
    async cleanup() {
      await server.close();
      await db.cleanup();
    },
  };
  return handle;
}

/** Loses the database: the SQLite files, or every table of the PostgreSQL schema. */
export async function wipeDatabase(ctx: ContentServer): Promise<void> {
  const env = ctx.cliEnv();
  if (!env.DATABASE_URL) {
    for (const f of ['folio.db', 'folio.db-wal', 'folio.db-shm'])
      fs.rmSync(path.join(env.DATA_DIR!, f), { force: true });
    return;
  }
  const url = new URL(env.DATABASE_URL);
  const schema = /search_path=(\S+)/.exec(url.searchParams.get('options') ?? '')![1]!;
  url.searchParams.delete('options');
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  await client.query(`drop schema ${schema} cascade`);
  await client.query(`create schema ${schema}`);
  await client.end();
}

export { firstWorkspace as starterWorkspace } from '../helpers/users.js';

/** Makes `user` a member of the workspace with `role` (invitations are another feature's). */
export async function addMember(
  server: TestServer,
  workspaceId: string,
  user: TestUser,
  role: Role,
): Promise<void> {
  await server.folio.store.db
    .insertInto('workspace_members')
    .values({ workspace_id: workspaceId, user_id: user.id, role, created_at: new Date().toISOString() })
    .execute();
}

/** The absolute path of a workspace file. */
export const fileIn = (server: TestServer, workspaceId: string, relPath = ''): string =>
  path.join(server.dataDir, 'workspaces', workspaceId, relPath);

/** The content URL of a page. */
export const pageUrl = (slug: string, pagePath: string): string => `/api/v1/content/${slug}/${pagePath}`;

/**
 * An HTTP request with the path sent byte for byte: fetch would resolve `..`
 * and `%2e%2e` segments before sending, hiding exactly what the tests probe.
 */
export function rawRequest(
  server: TestServer,
  method: string,
  rawPath: string,
  options: { token?: string; body?: unknown } = {},
): Promise<TestResponse> {
  const url = new URL(server.url);
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path: rawPath,
        headers: {
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(payload
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
            : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => {
          let body: unknown;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: new Headers(), body, text });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

export { eventually } from '../helpers/eventually.js';
