import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmButton } from '../ui/confirm-button';
import { errorText } from '../ui/form-error';
import { Loading } from '../ui/loading';
import { historyApi, type Revision } from './history-api';
import { historyKeys } from '../api/query-keys';

interface Props {
  workspaceId: string;
  path: string;
  revision: Revision;
  mayRestore: boolean;
  currentHash: () => string | undefined;
  onRestored: () => void;
}

const MARK = { added: '+', removed: '−', context: ' ' } as const;
const SAID = { added: 'Added: ', removed: 'Removed: ', context: '' } as const;

/**
 * What changed from one version of the page to its current text, line by line (removed
 * lines are the version's, added ones the current text's), and the two-step restore.
 */
export function RevisionDiff({ workspaceId, path, revision, mayRestore, currentHash, onRestored }: Props) {
  const diff = useQuery({
    queryKey: historyKeys.diff(workspaceId, path, revision.commit),
    queryFn: () => historyApi.diffToCurrent(workspaceId, path, revision.commit),
    staleTime: 0,
  });
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');

  const restore = async () => {
    setBusy(true);
    setProblem('');
    try {
      await historyApi.restore(workspaceId, path, revision.commit, currentHash());
      onRestored();
    } catch (error) {
      setProblem(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  if (diff.isPending) return <Loading label="Loading the differences…" />;
  if (diff.isError) return <p role="alert">{errorText(diff.error)}</p>;
  const lines = diff.data.hunks.flatMap((hunk, i) => [
    ...(i > 0 ? [{ kind: 'gap' as const }] : []),
    ...hunk.lines,
  ]);
  return (
    <div className="revision-diff">
      {lines.length === 0 ? (
        <p className="hint">This version is the same as the current text.</p>
      ) : (
        <ol className="diff-lines" aria-label="Differences from this version to the current text">
          {lines.map((line, i) =>
            line.kind === 'gap' ? (
              <li key={i} className="diff-gap" aria-hidden="true">
                ⋯
              </li>
            ) : (
              <li key={i} className={`diff-line diff-${line.kind}`}>
                <span className="diff-mark" aria-hidden="true">
                  {MARK[line.kind]}
                </span>
                <span className="visually-hidden">{SAID[line.kind]}</span>
                <code>{line.text === '' ? ' ' : line.text}</code>
              </li>
            ),
          )}
        </ol>
      )}
      {problem && <p role="alert">{problem}</p>}
      {mayRestore && lines.length > 0 && (
        <div className="revision-actions">
          <ConfirmButton
            label="Restore this version"
            confirmLabel="Confirm restore"
            tone="primary"
            small
            busy={busy}
            onConfirm={() => void restore()}
          />
        </div>
      )}
    </div>
  );
}
