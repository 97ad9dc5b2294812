import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api/client';
import type { List } from '../api/types';
import type { ActivityRecord } from '../../../src/contract/activity';
import { errorText } from '../ui/form-error';
import { relativeTime } from '../ui/relative-time';
import { pageKeys } from '../api/query-keys';

const VERBS: Record<string, string> = {
  page_created: 'created the page',
  page_updated: 'edited the page',
  page_moved: 'moved the page',
  pages_reordered: 'reordered the folder',
  comment_created: 'commented',
  conflict_detected: 'sync found a conflict',
  conflict_resolved: 'resolved a conflict',
  upload_created: 'uploaded a file',
};

/**
 * The page's recent activity (GET …/page-activity), fetched when the writer opens the
 * disclosure, newest first: who did what, and when.
 */
export function PageActivity({ workspaceId, path }: { workspaceId: string; path: string }) {
  const [open, setOpen] = useState(false);
  const activity = useQuery({
    queryKey: pageKeys.activity(workspaceId, path),
    queryFn: () =>
      api<List<ActivityRecord>>(
        'GET',
        `/api/v1/workspaces/${workspaceId}/page-activity?page=${encodeURIComponent(path)}&limit=10`,
      ).then((r) => r.data),
    enabled: open,
    staleTime: 0,
  });
  return (
    <details className="page-activity" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Activity</summary>
      {activity.isPending && open && <p>Loading…</p>}
      {activity.isError && <p role="alert">{errorText(activity.error)}</p>}
      {activity.data?.length === 0 && <p>Nothing recorded yet.</p>}
      {activity.data && activity.data.length > 0 && (
        <ol className="activity-list">
          {activity.data.map((entry) => (
            <li key={entry.id}>
              <span className="activity-who">{entry.actor_name ?? 'Folio'}</span>{' '}
              {VERBS[entry.action] ?? entry.action.replaceAll('_', ' ')}{' '}
              <time dateTime={entry.created_at} title={new Date(entry.created_at).toLocaleString()}>
                {relativeTime(entry.created_at)}
              </time>
            </li>
          ))}
        </ol>
      )}
    </details>
  );
}
