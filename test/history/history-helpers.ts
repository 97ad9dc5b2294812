import path from 'node:path';
import { runGit } from '../../src/git/git.js';
import type { DatabaseTarget } from '../helpers/databases.js';
import { eventually } from '../helpers/eventually.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { createWorkspace, grantRole, type TestWorkspace } from '../helpers/workspace-access.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON */

/** A Folio committing web edits quickly, an owner and an editor (two authors), and a workspace. */
export interface HistoryEnv {
  server: TestServer;
  owner: TestUser;
  editor: TestUser;
  ws: TestWorkspace;
  /** The workspace's repository on disk. */
  repo: string;
  cleanup(): Promise<void>;
}

/** Starts Folio on `target` with a short commit batch, so each save below becomes its own commit. */
export async function startHistoryEnv(target: DatabaseTarget): Promise<HistoryEnv> {
  const db = await target.prepare();
  const server = await startServer({
    env: { GIT_SYNC_INTERVAL: '0', ...db.env },
    ...(db.pgSchema ? { pgSchema: db.pgSchema } : {}),
    gitCommitDebounceMs: 20,
    rateLimits: { contentRead: { limit: 100_000 }, contentWrite: { limit: 100_000 } },
  });
  const owner = await registerUser(server, { name: 'Olive Owner' });
  const editor = await registerUser(server, { name: 'Eddie Editor' });
  const ws = await createWorkspace(server, owner, `history-${Date.now().toString(36)}`);
  await grantRole(server, ws, editor, 'editor');
  return {
    server,
    owner,
    editor,
    ws,
    repo: path.join(server.dataDir, 'workspaces', ws.id),
    async cleanup() {
      await server.close();
      await db.cleanup();
    },
  };
}

/** The shas of the workspace branch, newest first ([] before the first commit). */
export async function commitsOf(repo: string): Promise<string[]> {
  const r = await runGit(repo, ['rev-list', 'HEAD'], { allowFailure: true });
  return r.code === 0 ? r.stdout.trim().split('\n').filter(Boolean) : [];
}

/**
 * Runs a web change and waits until it is committed; answers the response and the new HEAD.
 * The commit batch is per author, so waiting keeps every change in a commit of its own.
 */
export async function committed(
  env: HistoryEnv,
  change: () => Promise<{ status: number; body: any; text: string }>,
): Promise<{ res: { status: number; body: any; text: string }; sha: string }> {
  const before = (await commitsOf(env.repo)).length;
  const res = await change();
  if (res.status >= 300) throw new Error(`change failed: ${res.status} ${res.text}`);
  // The repository's own first commit (its .gitignore) may land just before the change's.
  await eventually(async () => {
    if ((await commitsOf(env.repo)).length <= before) return false;
    const subject = await runGit(env.repo, ['log', '-1', '--format=%s']);
    return subject.stdout.trim() !== 'docs: keep Folio metadata out of git';
  });
  const [sha = ''] = await commitsOf(env.repo);
  return { res, sha };
}

/** `/api/v1/workspaces/:id/history…` of the env's workspace. */
export const historyUrl = (env: HistoryEnv, rest = '') => `/api/v1/workspaces/${env.ws.id}/history${rest}`;

/** `/api/v1/content/:slug/<page>` of the env's workspace. */
export const pageUrl = (env: HistoryEnv, page: string) => `/api/v1/content/${env.ws.slug}/${page}`;
