import { useInfiniteQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api/client';
import type { List, Workspace } from '../api/types';
import type { ActivityRecord } from '../../../src/contract/activity';
import { usePeople } from '../comments/comments-api';
import { FormError } from '../ui/form-error';
import { Loading } from '../ui/loading';
import { relativeTime } from '../ui/relative-time';
import { adminKeys } from '../api/query-keys';

/** The actions the filter offers, as a person would name them. */
const ACTIONS: Readonly<Record<string, string>> = {
  page_created: 'Page created',
  page_updated: 'Page edited',
  page_moved: 'Page moved',
  page_deleted: 'Page deleted',
  pages_reordered: 'Pages reordered',
  comment_created: 'Comment',
  upload_created: 'Upload',
  member_added: 'Member added',
  member_role_changed: 'Role changed',
  member_removed: 'Member removed',
  settings_updated: 'Settings changed',
  workspace_published: 'Site published',
  version_created: 'Version created',
  version_deleted: 'Version deleted',
  sync_completed: 'Git sync',
  conflict_detected: 'Conflict found',
  conflict_resolved: 'Conflict resolved',
};

const PAGE_SIZE = 25;

/** The workspace's activity feed, newest first, filtered by action and person, 25 at a time. */
export function ActivitySection({ workspace }: { workspace: Workspace }) {
  const actionId = useId();
  const personId = useId();
  const [action, setAction] = useState('');
  const [actor, setActor] = useState('');
  const people = usePeople(workspace.slug, true);
  const feed = useInfiniteQuery({
    queryKey: adminKeys.activity(workspace.id, action, actor),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => {
      const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
      if (action) query.set('action', action);
      if (actor) query.set('actor', actor);
      if (pageParam) query.set('cursor', pageParam);
      return api<List<ActivityRecord>>('GET', `/api/v1/workspaces/${workspace.id}/activity?${query}`);
    },
    getNextPageParam: (last) => last.next_cursor,
  });
  const entries = feed.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <section className="account-section" aria-label="Activity">
      <div className="inline-form">
        <div className="field">
          <label htmlFor={actionId}>Action</label>
          <select id={actionId} value={action} onChange={(e) => setAction(e.target.value)}>
            <option value="">Everything</option>
            {Object.entries(ACTIONS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={personId}>Person</label>
          <select id={personId} value={actor} onChange={(e) => setActor(e.target.value)}>
            <option value="">Anyone</option>
            {people.data?.map((person) => (
              <option key={person.user_id} value={person.user_id}>
                {person.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      {feed.isPending && <Loading label="Loading the activity…" />}
      <FormError error={feed.error} />
      {feed.isSuccess && entries.length === 0 && <p className="hint">Nothing matches these filters.</p>}
      {entries.length > 0 && (
        <ol className="item-list activity-feed">
          {entries.map((entry) => (
            <li key={entry.id} className="item">
              <div className="item-text">
                <span>
                  <strong>{entry.actor_name ?? 'Folio'}</strong> ·{' '}
                  {ACTIONS[entry.action] ?? entry.action.replaceAll('_', ' ')}
                  {entry.path && (
                    <>
                      {' · '}
                      <Link to={`/w/${workspace.slug}/${entry.path}`}>{entry.path}</Link>
                    </>
                  )}
                </span>
                <time
                  className="hint"
                  dateTime={entry.created_at}
                  title={new Date(entry.created_at).toLocaleString()}
                >
                  {relativeTime(entry.created_at)}
                </time>
              </div>
            </li>
          ))}
        </ol>
      )}
      {feed.hasNextPage && (
        <div className="item-actions">
          <button
            type="button"
            className="button"
            disabled={feed.isFetchingNextPage}
            onClick={() => void feed.fetchNextPage()}
          >
            Show older activity
          </button>
        </div>
      )}
    </section>
  );
}
