import { createHmac } from 'node:crypto';
import path from 'node:path';
import { runGit } from '../../src/git/git.js';
import type { FolioEvent } from '../../src/events/types.js';
import type { DatabaseTarget } from '../helpers/databases.js';
import { makeTempDir, removeTempDir } from '../helpers/git-fixtures.js';
import { startServer, type StartOptions, type TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON */

/** A Folio with git sync on, a temp folder for remotes and clones, and every event it emitted. */
export interface SyncEnv {
  server: TestServer;
  owner: TestUser;
  /** Temp folder outside DATA_DIR for bare remotes and clones. */
  tmp: string;
  events: FolioEvent[];
  /**
   * The database this instance uses and the local remotes it accepts: a second instance
   * started with it shares the workspace lock and may push to the same remotes.
   */
  env: Record<string, string>;
  pgSchema?: string;
  /** Stops and starts the server again on the same DATA_DIR and database. */
  restart(extra?: StartOptions): Promise<TestServer>;
  cleanup(): Promise<void>;
}

/**
 * Starts Folio on `target` for sync tests: webhooks only (no polling) unless
 * the test asks, loopback remotes allowed (the HTTP test remote is on 127.0.0.1),
 * local remotes allowed below `tmp`, limits a busy suite does not trip, and a
 * registered owner (the instance's first user, so its platform owner).
 */
export async function startSync(target: DatabaseTarget, options: StartOptions = {}): Promise<SyncEnv> {
  const db = await target.prepare();
  const tmp = await makeTempDir('folio-sync-');
  const shared = { ...db.env, GIT_ALLOW_FILE_REMOTES: 'true', GIT_FILE_REMOTE_ROOT: tmp };
  const base: StartOptions = {
    // Web edits committed 100 ms after the last one rather than 1 s: the suites wait on commits.
    gitCommitDebounceMs: 100,
    ...options,
    env: { GIT_SYNC_INTERVAL: '0', GIT_ALLOW_PRIVATE_HOSTS: 'true', ...shared, ...options.env },
    ...(db.pgSchema ? { pgSchema: db.pgSchema } : {}),
    rateLimits: {
      auth: { limit: 100_000 },
      contentRead: { limit: 100_000 },
      contentWrite: { limit: 100_000 },
      ...options.rateLimits,
    },
  };
  const events: FolioEvent[] = [];
  const listen = (server: TestServer) => server.folio.events.onAny((e) => events.push(e));
  let server = await startServer(base);
  listen(server);
  const env: SyncEnv = {
    server,
    owner: await registerUser(server, { name: 'Olive Owner' }),
    tmp,
    events,
    env: shared,
    ...(db.pgSchema ? { pgSchema: db.pgSchema } : {}),
    async restart(extra = {}) {
      await server.close();
      server = await startServer({
        ...base,
        ...extra,
        env: { ...base.env, ...extra.env },
        dataDir: server.dataDir,
      });
      listen(server);
      env.server = server;
      return server;
    },
    async cleanup() {
      await server.close();
      await db.cleanup();
      await removeTempDir(tmp);
    },
  };
  return env;
}

/** Creates a workspace connected to `remote` (branch main) as the owner; answers the record. */
export async function remoteWorkspace(
  env: SyncEnv,
  remote: string,
  slug = `docs-${Date.now() % 1e8}`,
): Promise<any> {
  const res = await env.server.request('POST', '/api/v1/workspaces', {
    token: env.owner.token,
    body: { name: slug, slug, git_remote: remote, git_branch: 'main' },
  });
  if (res.status !== 201) throw new Error(`create workspace: ${res.status} ${res.text}`);
  return res.body;
}

/** The workspace's working tree. */
export const treeOf = (env: SyncEnv, workspaceId: string): string =>
  path.join(env.server.dataDir, 'workspaces', workspaceId);

/** A file's text on a branch of a (bare) repository, or null when absent. */
export async function fileAt(repo: string, file: string, ref = 'main'): Promise<string | null> {
  const r = await runGit(repo, ['show', `${ref}:${file}`], { allowFailure: true });
  return r.code === 0 ? r.stdout : null;
}

/** `git log` lines of a (bare) repository's branch, newest first; [] when the branch does not exist. */
export async function logLines(repo: string, format: string, ref = 'main'): Promise<string[]> {
  const r = await runGit(repo, ['log', `--format=${format}`, ref, '--'], { allowFailure: true });
  return r.code === 0 ? r.stdout.split('\n').filter((l) => l !== '') : [];
}

/**
 * `git status --porcelain` of a working tree, trimmed. Without git's optional index lock: a
 * test polling it must not make Folio's own commit fail on `index.lock`.
 */
export async function treeStatus(tree: string): Promise<string> {
  return (await runGit(tree, ['--no-optional-locks', 'status', '--porcelain'])).stdout.trim();
}

/** Each commit of the repository's HEAD, newest first: subject, author name and the files it touched. */
export async function commitsWithFiles(
  repo: string,
): Promise<Array<{ subject: string; author: string; files: string[] }>> {
  const r = await runGit(repo, ['log', '--format=%x00%s%x01%an', '--name-only'], { allowFailure: true });
  if (r.code !== 0) return [];
  return r.stdout
    .split('\0')
    .slice(1)
    .map((entry) => {
      const [head = '', ...files] = entry.split('\n');
      const [subject = '', author = ''] = head.split('\x01');
      return { subject, author, files: files.filter((f) => f !== '') };
    });
}

export { eventually } from '../helpers/eventually.js';

/** GitHub's and Gitea's signature header value for `body`. */
export const hubSignature = (secret: string, body: string, algo: 'sha1' | 'sha256' = 'sha256'): string =>
  `${algo}=${createHmac(algo, secret).update(body).digest('hex')}`;

/** A push payload as GitHub, Gitea and Forgejo send it (GitLab's carries the same `ref`). */
export const pushPayload = (branch: string, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({
    ref: `refs/heads/${branch}`,
    before: '1'.repeat(40),
    after: '2'.repeat(40),
    commits: [{ id: '2'.repeat(40), message: 'Update docs' }],
    ...extra,
  });

/** Posts a webhook delivery with the given headers and raw body. */
export function postWebhook(
  env: SyncEnv,
  workspaceId: string,
  body: string,
  headers: Record<string, string>,
) {
  return env.server.request('POST', `/api/git/webhook/${workspaceId}`, {
    body,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** The content URL of a page. */
export const pageUrl = (slug: string, pagePath: string): string => `/api/v1/content/${slug}/${pagePath}`;
