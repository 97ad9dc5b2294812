import type { Workspace } from '../../api/types';
import type {
  ConflictDetail,
  ConflictRecord,
  DeployKey,
  SyncResult,
  SyncStatus,
} from '../../../../src/contract/sync';

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

export type { ConflictDetail, ConflictRecord, DeployKey, SyncResult, SyncStatus };
