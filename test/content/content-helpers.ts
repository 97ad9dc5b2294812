import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import pg from 'pg';
import { afterEach, expect } from 'vitest';
import type { Role } from '../../src/domain/policy.js';
import type { DatabaseTarget } from '../helpers/databases.js';
import { eventually } from '../helpers/eventually.js';
import { createBareRepo, fileUrl, makeTempDir, removeTempDir } from '../helpers/git-fixtures.js';
import { startServer, type StartOptions, type TestResponse, type TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { createPage } from '../helpers/workspace-access.js';
import { fileAt } from '../sync/sync-helpers.js';

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

export { eventually };

/** A workspace made by `useFileRemotes`, its bare remote and its first page. */
export interface RemoteWorkspace {
  ws: { id: string; slug: string; webhook_secret: string };
  bare: string;
  page: { page_id: string; path: string };
}

/**
 * For suites whose workspaces push to bare repositories over file://. `start()` runs Folio
 * on `target` with file remotes allowed below a fresh temporary folder (periodic sync off)
 * and registers an owner; `remoteWorkspace()` creates a workspace pushing to a new bare
 * repository there, with one published page, and waits until the page is pushed. Both are
 * removed after each test.
 */
export function useFileRemotes(target: DatabaseTarget, prefix: string) {
  let ctx: ContentServer | undefined;
  let tmp: string | undefined;
  afterEach(async () => {
    await ctx?.cleanup();
    if (tmp) await removeTempDir(tmp);
    ctx = undefined;
    tmp = undefined;
  });

  return {
    async start(): Promise<{ ctx: ContentServer; owner: TestUser; tmp: string }> {
      tmp = await makeTempDir(`folio-${prefix}-`);
      ctx = await startOn(target, {
        env: { GIT_SYNC_INTERVAL: '0', GIT_ALLOW_FILE_REMOTES: 'true', GIT_FILE_REMOTE_ROOT: tmp },
      });
      return { ctx, owner: await registerUser(ctx.server), tmp };
    },

    async remoteWorkspace(
      owner: TestUser,
      input: { name: string; page: { path: string; title: string; body: string } },
    ): Promise<RemoteWorkspace> {
      if (!ctx || !tmp) throw new Error('call start() first');
      const bare = await createBareRepo(tmp, 'docs');
      const slug = `${prefix}-${Date.now() % 1e8}`;
      const created = await ctx.server.request('POST', '/api/v1/workspaces', {
        token: owner.token,
        body: { name: input.name, slug, git_remote: fileUrl(bare), git_branch: 'main' },
      });
      expect(created.status).toBe(201);
      const ws = created.body as RemoteWorkspace['ws'];
      const { path: pagePath, ...page } = input.page;
      const made = await createPage(ctx.server, owner, ws, pagePath, { ...page, publish: true });
      await eventually(async () => fileAt(bare, pagePath));
      return { ws, bare, page: made };
    },
  };
}
