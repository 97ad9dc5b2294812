import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type RefObject } from 'react';
import { errorText } from '../ui/form-error';
import { Loading } from '../ui/loading';
import { relativeTime } from '../ui/relative-time';
import { historyApi, type Revision } from './history-api';
import { RevisionDiff } from './revision-diff';
import { historyKeys } from '../api/query-keys';

interface Props {
  id: string;
  headingRef: RefObject<HTMLHeadingElement | null>;
  workspaceId: string;
  path: string;
  mayRestore: boolean;
  currentHash: () => string | undefined;
  onRestored: () => void;
  onClose: () => void;
}

const CHANGES: Record<Revision['change'], string> = {
  created: 'Created',
  updated: 'Edited',
  moved: 'Moved',
  deleted: 'Deleted',
};

/**
 * The page's revisions from git, newest first (a full-width sheet on phones): who changed
 * it, when and how, and for each one its differences from the current text, with
 * "Restore this version" for editors. Escape closes it.
 */
export function HistoryPanel(props: Props) {
  const { id, headingRef, workspaceId, path, onClose } = props;
  const headingId = useId();
  const queryClient = useQueryClient();
  const [selected, setSelected] = useState<Revision | null>(null);
  const [notice, setNotice] = useState('');
  // A restore is committed to git a moment after it is saved: until the newest revision is
  // no longer this one, the list is asked again every second (for half a minute at most).
  const [awaiting, setAwaiting] = useState<{ commit: string | undefined; since: number } | null>(null);
  const revisions = useInfiniteQuery({
    queryKey: historyKeys.ofPage(workspaceId, path),
    queryFn: ({ pageParam }) => historyApi.list(workspaceId, path, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    staleTime: 0,
    refetchInterval: (query) => {
      const top = query.state.data?.pages[0]?.data[0]?.commit;
      const waiting = awaiting && top === awaiting.commit && Date.now() - awaiting.since < 30_000;
      return waiting ? 1000 : false;
    },
  });
  const list = revisions.data?.pages.flatMap((p) => p.data) ?? [];
  const newest = list[0]?.commit;

  return (
    <section
      id={id}
      className="history-panel"
      aria-labelledby={headingId}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !event.defaultPrevented) onClose();
      }}
    >
      <header className="history-header">
        <h2 id={headingId} ref={headingRef} tabIndex={-1}>
          History
        </h2>
        <button type="button" className="button small ghost" onClick={onClose}>
          Close history
        </button>
      </header>
      <p className="history-notice" role="status">
        {notice}
      </p>
      {revisions.isPending ? (
        <Loading label="Loading the history…" />
      ) : revisions.isError ? (
        <p role="alert">{errorText(revisions.error)}</p>
      ) : list.length === 0 ? (
        <p className="hint">No saved versions yet: changes appear here once they are committed.</p>
      ) : (
        <ol className="revision-list" aria-label="Versions, newest first">
          {list.map((revision) => (
            <li key={revision.commit} className={selected?.commit === revision.commit ? 'is-selected' : ''}>
              <div className="revision-line">
                <span className={`revision-change change-${revision.change}`}>
                  {CHANGES[revision.change]}
                </span>
                <span className="revision-who">{revision.author.name}</span>
                <time dateTime={revision.created_at} title={new Date(revision.created_at).toLocaleString()}>
                  {relativeTime(revision.created_at)}
                </time>
              </div>
              <p className="revision-message">
                {revision.message.split('\n')[0]} <code>{revision.commit.slice(0, 7)}</code>
              </p>
              {revision.change !== 'deleted' && (
                <button
                  type="button"
                  className="button small"
                  aria-pressed={selected?.commit === revision.commit}
                  aria-label={`Compare the version of ${new Date(revision.created_at).toLocaleString()} with the current text`}
                  onClick={() => setSelected(selected?.commit === revision.commit ? null : revision)}
                >
                  Compare with current
                </button>
              )}
              {selected?.commit === revision.commit && (
                <RevisionDiff
                  {...props}
                  revision={revision}
                  onRestored={() => {
                    setSelected(null);
                    setNotice(`Restored the version of ${new Date(revision.created_at).toLocaleString()}.`);
                    setAwaiting({ commit: newest, since: Date.now() });
                    void queryClient.invalidateQueries({ queryKey: historyKeys.ofPage(workspaceId, path) });
                    props.onRestored();
                  }}
                />
              )}
            </li>
          ))}
        </ol>
      )}
      {revisions.hasNextPage && (
        <button
          type="button"
          className="button small"
          disabled={revisions.isFetchingNextPage}
          onClick={() => void revisions.fetchNextPage()}
        >
          Show older versions
        </button>
      )}
    </section>
  );
}
