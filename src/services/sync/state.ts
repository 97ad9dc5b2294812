import path from 'node:path';
import type { EventBus } from '../../events/bus.js';
import { GitError, type GitErrorKind, redactCredentials } from '../../git/git.js';
import { readKnownHosts, type TrustedHostKey } from '../../git/known-hosts.js';
import type { Store } from '../../store/database.js';
import type { Queryable } from '../../store/repositories/queryable.js';
import * as syncState from '../../store/repositories/sync-state.js';
import * as workspacesTable from '../../store/repositories/workspaces.js';
import type { Clock } from '../../lib/clock.js';

/**
 * A workspace's `sync_status`. The API documents `conflict`; the rest are Folio's:
 * `idle` (in step with the remote, or no remote), `syncing` (a pull is
 * running), `pushing` (web commits going out), `error` (the last attempt
 * failed; see `last_error`), `conflict` (unresolved merge conflicts).
 */
export type SyncStatus = 'idle' | 'syncing' | 'pushing' | 'error' | 'conflict';

/** What the workspace record shows of its sync beyond `sync_status`. */
export interface SyncSummary {
  last_sync_at: string | null;
  last_error: string | null;
  /** The SSH host key Folio trusted on first contact with an ssh remote; null before that. */
  git_host_key: TrustedHostKey | null;
  /** The HTTPS user name stored for the remote (its password is never shown); null when none. */
  git_username: string | null;
}

/** Where ssh remembers the host key of a workspace's remote (beside its deploy key). */
export const knownHostsFile = (dataDir: string, workspaceId: string): string =>
  path.join(dataDir, 'git-keys', workspaceId, 'known_hosts');

/** What each kind of git failure means for the person reading `last_error`. */
export const REMOTE_FAILURE: Record<GitErrorKind, string> = {
  auth: 'The git remote refused the credentials',
  'host-key-changed':
    "The git remote's SSH host key has changed since Folio first trusted it. If the server's key was " +
    'really replaced, an admin resets the trusted key (DELETE /api/v1/workspaces/:id/git-host-key); otherwise ' +
    'someone may be impersonating the server',
  'not-found': 'The git remote repository or branch was not found',
  rejected: 'The git remote rejected the push',
  unavailable: 'The git remote is unavailable',
  timeout: 'The git remote did not answer in time',
  unknown: 'Git failed',
};

/**
 * Errors are stored for people to read: one line, credentials blanked,
 * bounded. A git failure says what kind it is and git's own first line
 * (already redacted), not the command that ran.
 */
export function errorText(error: unknown, context?: string): string {
  const firstLine = (text: string) =>
    redactCredentials(text)
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim();
  let line: string;
  if (error instanceof GitError) {
    // ssh's warning banner says nothing the message does not say better.
    const said = error.kind === 'host-key-changed' ? undefined : firstLine(error.stderr);
    line = said ? `${REMOTE_FAILURE[error.kind]}: ${said}` : REMOTE_FAILURE[error.kind];
  } else {
    line = firstLine(error instanceof Error ? error.message : String(error)) ?? 'unknown error';
  }
  if (context) line = `${context}: ${line}`;
  return line.length > 500 ? `${line.slice(0, 497)}...` : line;
}

/** The sync summaries of several workspaces (those never synced are absent). */
export async function syncSummaries(
  db: Queryable,
  dataDir: string,
  ids: string[],
): Promise<Map<string, SyncSummary>> {
  const out = new Map<string, SyncSummary>();
  for (const r of await syncState.listSyncSummaryRows(db, ids)) {
    const [hostKey] = await readKnownHosts(knownHostsFile(dataDir, r.workspace_id));
    out.set(r.workspace_id, {
      last_sync_at: r.last_sync_at,
      last_error: r.last_error,
      git_host_key: hostKey ?? null,
      git_username: r.git_password ? r.git_username : null,
    });
  }
  return out;
}

/**
 * Writes sync status and its history. A status change goes out as
 * `sync-status` only when the stored value really changed, so
 * listeners see each transition once even with several instances.
 */
export function createSyncState(deps: { store: Store; events: EventBus; clock: Clock }) {
  const db = deps.store.db;
  const now = () => deps.clock.now().toISOString();

  async function upsert(
    workspaceId: string,
    fields: Partial<Record<'last_sync_at' | 'last_error' | 'last_error_at', string | null>>,
  ) {
    await syncState.upsertSyncRecord(db, workspaceId, { ...fields, updated_at: now() });
  }

  return {
    /** Sets `sync_status`, emitting `sync-status` when it changed. */
    async setStatus(workspaceId: string, status: SyncStatus): Promise<void> {
      if (await workspacesTable.updateSyncStatus(db, workspaceId, status))
        deps.events.emit('sync-status', { workspace_id: workspaceId, status });
    },

    /** The current status as stored. */
    async status(workspaceId: string): Promise<SyncStatus> {
      return ((await workspacesTable.findSyncStatus(db, workspaceId)) ?? 'idle') as SyncStatus;
    },

    /** What failed works again (a commit): forgets the error and leaves `error` for `idle`. */
    async clearError(workspaceId: string): Promise<void> {
      await upsert(workspaceId, { last_error: null, last_error_at: null });
      if (await workspacesTable.updateSyncStatus(db, workspaceId, 'idle', { from: 'error' }))
        deps.events.emit('sync-status', { workspace_id: workspaceId, status: 'idle' });
    },

    /** A pull or push went through: remembers when, and forgets the last error. */
    recordSuccess: (workspaceId: string) =>
      upsert(workspaceId, { last_sync_at: now(), last_error: null, last_error_at: null }),

    /**
     * Remembers why the last attempt failed (redacted, after `context` when
     * given); returns the stored text.
     */
    async recordError(workspaceId: string, error: unknown, context?: string): Promise<string> {
      const text = context ? errorText(error, context) : errorText(error);
      await upsert(workspaceId, { last_error: text, last_error_at: now() });
      return text;
    },
  };
}

export type SyncState = ReturnType<typeof createSyncState>;
