import { useQueryClient } from '@tanstack/react-query';
import { useId, type RefObject } from 'react';
import { errorText } from '../ui/form-error';
import { Loading } from '../ui/loading';
import { commentsApi, type Thread } from './comments-api';
import { CommentForm } from './comment-form';
import { CommentThread, type ThreadContext } from './comment-thread';
import { commentKeys } from '../api/query-keys';

interface Props {
  id: string;
  context: ThreadContext;
  threads: { data?: Thread[]; isPending: boolean; error: unknown };
  headingRef: RefObject<HTMLHeadingElement | null>;
  onClose: () => void;
}

/**
 * The page's comments beside the editor (a full-width sheet on phones): a box
 * for a new thread, the open threads, and the resolved ones folded away.
 * Escape closes it.
 */
export function CommentsPanel({ id, context, threads, headingRef, onClose }: Props) {
  const headingId = useId();
  const queryClient = useQueryClient();
  const open = threads.data?.filter((t) => !t.resolved) ?? [];
  const resolved = threads.data?.filter((t) => t.resolved) ?? [];

  return (
    <section
      id={id}
      className="comments-panel"
      aria-labelledby={headingId}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !event.defaultPrevented) onClose();
      }}
    >
      <header className="comments-header">
        <h2 id={headingId} ref={headingRef} tabIndex={-1}>
          Comments
        </h2>
        <button type="button" className="button small ghost" onClick={onClose}>
          Close comments
        </button>
      </header>
      {context.mayComment ? (
        <CommentForm
          label="New comment"
          submitLabel="Comment"
          people={context.people}
          onSubmit={async (body) => {
            await commentsApi.create(context.slug, { page: context.path, body });
            await queryClient.invalidateQueries({
              queryKey: commentKeys.threads(context.slug, context.path),
            });
          }}
        />
      ) : (
        <p className="hint">Your role lets you read comments but not add them.</p>
      )}
      {threads.isPending ? (
        <Loading label="Loading comments…" />
      ) : threads.error ? (
        <p className="form-error" role="alert">
          {errorText(threads.error)}
        </p>
      ) : (
        <>
          {open.length === 0 && <p className="hint">No open comments on this page.</p>}
          {open.map((thread) => (
            <CommentThread key={thread.id} thread={thread} context={context} />
          ))}
          {resolved.length > 0 && (
            <details className="resolved-threads">
              <summary>Resolved ({resolved.length})</summary>
              {resolved.map((thread) => (
                <CommentThread key={thread.id} thread={thread} context={context} />
              ))}
            </details>
          )}
        </>
      )}
    </section>
  );
}
