import type { Workspace } from '../../api/types';
import type {
  ConflictDetail,
  ConflictRecord,
  DeployKey,
  SyncResult,
  SyncStatus,
} from '../../../../src/contract/sync';

/** One workspace as an admin reads it: its remote and how sync is going. */
export type GitWorkspace = Omit<Workspace, 'sync_status'> &
  Required<
    Pick<Workspace, 'last_error' | 'git_username' | 'webhook_url' | 'webhook_secret' | 'git_host_key'>
  > & {
    sync_status: SyncStatus;
  };

export type { ConflictDetail, ConflictRecord, DeployKey, SyncResult, SyncStatus };
