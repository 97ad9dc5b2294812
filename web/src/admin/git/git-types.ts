import type { Workspace } from '../../api/types';

/** What `sync_status` can be (the API's `sync-status` event carries the same values). */
export type SyncStatus = 'idle' | 'syncing' | 'pushing' | 'error' | 'conflict';

/** One workspace as an admin reads it: its remote and how sync is going. */
export interface GitWorkspace extends Workspace {
  git_remote: string | null;
  git_branch: string;
  sync_status: SyncStatus;
  last_sync_at: string | null;
  last_error: string | null;
  git_host_key: { host: string; type: string; fingerprint: string } | null;
  git_username: string | null;
  webhook_url: string;
  webhook_secret: string;
}

/** POST …/sync. */
export interface SyncResult {
  status: 'completed' | 'conflict';
  changes: { added: number; updated: number; deleted: number };
  conflicts?: ConflictRecord[];
}

/** One open conflict. */
export interface ConflictRecord {
  id: string;
  path: string;
  page_id: string;
  timestamp: string;
}

/** GET …/sync/conflicts/:id: both sides' text; null where that side deleted the file. */
export interface ConflictDetail extends ConflictRecord {
  ours: string | null;
  theirs: string | null;
}

/** GET …/deploy-key. */
export interface DeployKey {
  public_key: string;
  fingerprint: string;
}
