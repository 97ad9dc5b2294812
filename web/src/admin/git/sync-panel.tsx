import { useMutation } from '@tanstack/react-query';
import { api } from '../../api/client';
import { FormError } from '../../ui/form-error';
import { relativeTime } from '../../ui/relative-time';
import type { GitWorkspace, SyncResult, SyncStatus } from './git-types';

const STATUS_TEXT: Record<SyncStatus, string> = {
  idle: 'Up to date',
  syncing: 'Syncing…',
  pushing: 'Pushing…',
  error: 'Sync failed',
  conflict: 'Waiting for conflicts to be resolved',
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "Pulled 2 new pages, 1 changed, none deleted": what a sync did, in a sentence. */
function describeResult(result: SyncResult): string {
  if (result.status === 'conflict')
    return `Sync stopped: ${plural(result.conflicts?.length ?? 0, 'conflict')} to resolve below.`;
  const { added, updated, deleted } = result.changes;
  if (added + updated + deleted === 0) return 'Synced: nothing new on either side.';
  return `Synced: ${added} added, ${updated} updated, ${deleted} deleted.`;
}

/**
 * Where sync stands (live, from the `sync-status` events), when it last went through, why
 * it last failed, and "Sync now" with what it did.
 */
export function SyncPanel({ workspace, onSynced }: { workspace: GitWorkspace; onSynced: () => void }) {
  const sync = useMutation({
    mutationFn: () => api<SyncResult>('POST', `/api/v1/workspaces/${workspace.id}/sync`),
    onSettled: onSynced,
  });
  const status = workspace.sync_status;
  return (
    <section className="account-section" aria-labelledby="sync-heading">
      <h2 id="sync-heading">Sync</h2>
      <dl className="facts">
        <div>
          <dt>Status</dt>
          <dd>
            <span className={`sync-badge sync-${status}`} role="status" aria-live="polite">
              {STATUS_TEXT[status] ?? status}
            </span>
          </dd>
        </div>
        <div>
          <dt>Last synced</dt>
          <dd>{workspace.last_sync_at ? relativeTime(workspace.last_sync_at) : 'Never'}</dd>
        </div>
      </dl>
      {workspace.last_error && (
        <p className="form-error sync-error">
          <strong>Last error:</strong> {workspace.last_error}
        </p>
      )}
      <div className="inline-form">
        <button
          type="button"
          className="button primary"
          // Not disabled by a background sync or push: the status can turn to one between a
          // writer's aim and their click, and the click would be lost. The server runs this
          // sync after the one in progress and answers with what it did.
          disabled={sync.isPending || !workspace.git_remote}
          onClick={() => sync.mutate()}
        >
          {sync.isPending ? 'Syncing…' : 'Sync now'}
        </button>
        {!workspace.git_remote && <span className="hint">Connect a remote first.</span>}
      </div>
      {sync.data && (
        <p className="hint" role="status">
          {describeResult(sync.data)}
        </p>
      )}
      <FormError error={sync.error} />
    </section>
  );
}
