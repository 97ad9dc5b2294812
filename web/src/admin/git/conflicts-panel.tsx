import { useMutation, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useRef, useState } from 'react';
import { api } from '../../api/client';
import { FormError } from '../../ui/form-error';
import { Loading } from '../../ui/loading';
import { relativeTime } from '../../ui/relative-time';
import type { ConflictDetail, ConflictRecord } from './git-types';
import { gitKeys } from '../../api/query-keys';

const ConflictDiff = lazy(() => import('./conflict-diff'));

/** A conflict's compact UTC stamp (20261124T023413Z) as an ISO date. */
const stampToIso = (stamp: string) =>
  stamp.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z');

type Resolution = { resolution: 'ours' | 'theirs' } | { content: string };

/** One conflict opened: the diff, and the three ways out of it. */
function ConflictReview({
  base,
  conflict,
  onResolved,
}: {
  base: string;
  conflict: ConflictRecord;
  onResolved: () => void;
}) {
  const url = `${base}/sync/conflicts/${encodeURIComponent(conflict.id)}`;
  const detail = useQuery({
    queryKey: gitKeys.conflict(conflict.id),
    queryFn: () => api<ConflictDetail>('GET', url),
  });
  const [editing, setEditing] = useState(false);
  const readMerged = useRef<() => string>(() => '');
  const bindText = useCallback((read: () => string) => {
    readMerged.current = read;
  }, []);
  const resolve = useMutation({
    mutationFn: (body: Resolution) => api('POST', `${url}/resolve`, body),
    onSuccess: onResolved,
  });
  if (detail.isPending) return <Loading label="Loading both versions…" />;
  if (detail.isError) return <FormError error={detail.error} />;
  const { ours, theirs } = detail.data;
  return (
    <div className="conflict-review">
      {(ours === null || theirs === null) && (
        <p className="hint">
          {ours === null
            ? 'Folio deleted this file; the remote changed it.'
            : 'The remote deleted this file; Folio changed it.'}
        </p>
      )}
      <Suspense fallback={<Loading label="Loading the diff…" />}>
        <ConflictDiff ours={ours ?? ''} theirs={theirs ?? ''} editing={editing} bindText={bindText} />
      </Suspense>
      <div className="item-actions">
        {editing ? (
          <>
            <button type="button" className="button" onClick={() => setEditing(false)}>
              Cancel editing
            </button>
            <button
              type="button"
              className="button primary"
              disabled={resolve.isPending}
              onClick={() => resolve.mutate({ content: readMerged.current() })}
            >
              Save merge
            </button>
          </>
        ) : (
          <>
            <button
              type="button"
              className="button"
              disabled={resolve.isPending}
              onClick={() => resolve.mutate({ resolution: 'ours' })}
            >
              Keep ours
            </button>
            <button
              type="button"
              className="button"
              disabled={resolve.isPending}
              onClick={() => resolve.mutate({ resolution: 'theirs' })}
            >
              Take theirs
            </button>
            <button type="button" className="button primary" onClick={() => setEditing(true)}>
              Edit merge
            </button>
          </>
        )}
      </div>
      <FormError error={resolve.error} />
    </div>
  );
}

/**
 * The open conflicts of the last syncs: each opens as ours and theirs side by side, to
 * keep one or edit a merge; resolving commits and pushes it.
 */
export function ConflictsPanel({
  base,
  conflicts,
  onResolved,
}: {
  base: string;
  conflicts: ConflictRecord[];
  onResolved: () => void;
}) {
  const [open, setOpen] = useState<string | null>(null);
  return (
    <section className="account-section" aria-labelledby="conflicts-heading">
      <h2 id="conflicts-heading">Conflicts</h2>
      {conflicts.length === 0 ? (
        <p className="hint">No conflicts: Folio and the remote agree.</p>
      ) : (
        <>
          <p className="hint">
            The same lines changed in Folio and on the remote. Syncing waits until each file is resolved.
          </p>
          <ul className="item-list">
            {conflicts.map((conflict) => (
              <li key={conflict.id} className="item conflict-item">
                <div className="item-text">
                  <strong>{conflict.path}</strong>
                  <span className="hint">found {relativeTime(stampToIso(conflict.timestamp))}</span>
                </div>
                <div className="item-actions">
                  <button
                    type="button"
                    className="button small"
                    aria-expanded={open === conflict.id}
                    aria-label={`${open === conflict.id ? 'Close' : 'Review'} ${conflict.path}`}
                    onClick={() => setOpen(open === conflict.id ? null : conflict.id)}
                  >
                    {open === conflict.id ? 'Close' : 'Review'}
                  </button>
                </div>
                {open === conflict.id && (
                  <ConflictReview
                    base={base}
                    conflict={conflict}
                    onResolved={() => {
                      setOpen(null);
                      onResolved();
                    }}
                  />
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
