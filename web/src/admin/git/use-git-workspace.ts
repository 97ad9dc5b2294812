import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../api/client';
import { gitKeys } from '../../api/query-keys';
import type { Workspace } from '../../api/types';
import { useWorkspaceSocket } from '../../live/workspace-events';
import type { ConflictRecord, GitWorkspace, SyncStatus } from './git-types';

/** The events after which what the Git screen shows may have changed. */
const SYNC_EVENTS = new Set(['sync-status', 'conflict-detected', 'bulk-sync']);

/**
 * The workspace's remote and sync state plus its open conflicts, kept current by the
 * workspace's events: a sync started by a webhook, a poll or another admin shows up here
 * without reloading.
 */
export function useGitWorkspace(workspace: Workspace) {
  const queryClient = useQueryClient();
  const events = useWorkspaceSocket(workspace.id);
  const url = `/api/v1/workspaces/${workspace.id}`;
  const details = useQuery({
    queryKey: gitKeys.workspace(workspace.id),
    queryFn: () => api<GitWorkspace>('GET', url),
  });
  const conflicts = useQuery({
    queryKey: gitKeys.conflicts(workspace.id),
    queryFn: () =>
      api<{ sync_status: SyncStatus; conflicts: ConflictRecord[] }>('GET', `${url}/conflicts`).then(
        (r) => r.conflicts,
      ),
  });

  useEffect(
    () =>
      events.on((event) => {
        if (!SYNC_EVENTS.has(event.type)) return;
        if (event.type === 'sync-status' && event.status) {
          // The status is shown at once; the rest (last error, last sync) follows the refetch.
          queryClient.setQueryData<GitWorkspace>(gitKeys.workspace(workspace.id), (old) =>
            old ? { ...old, sync_status: event.status as SyncStatus } : old,
          );
        }
        void queryClient.invalidateQueries({ queryKey: gitKeys.workspace(workspace.id) });
        void queryClient.invalidateQueries({ queryKey: gitKeys.conflicts(workspace.id) });
      }),
    [events, queryClient, workspace.id],
  );

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: gitKeys.workspace(workspace.id) }),
      queryClient.invalidateQueries({ queryKey: gitKeys.conflicts(workspace.id) }),
    ]);
  return { url, details, conflicts, refresh };
}
