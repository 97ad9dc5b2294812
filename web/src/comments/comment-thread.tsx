import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { canEdit, type Role } from '../api/types';
import { errorText } from '../ui/form-error';
import { commentsApi, type Comment, type Person, type Thread } from './comments-api';
import { CommentForm } from './comment-form';
import { commentKeys } from '../api/query-keys';

export interface ThreadContext {
  slug: string;
  path: string;
  role: Role;
  /** The signed-in user's id. */
  me: string | undefined;
  /** Whether the role may add comments. */
  mayComment: boolean;
  people: readonly Person[];
}

const isAdmin = (role: Role) => role === 'admin' || role === 'superadmin';

/** One thread: its comments, a reply box, and resolve or reopen for those who may. */
export function CommentThread({ thread, context }: { thread: Thread; context: ThreadContext }) {
  const queryClient = useQueryClient();
  const [replying, setReplying] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: commentKeys.threads(context.slug, context.path) });

  const setResolved = async (resolved: boolean) => {
    setProblem(null);
    try {
      await commentsApi.setResolved(thread.id, resolved);
      await refresh();
    } catch (error) {
      setProblem(errorText(error));
    }
  };

  return (
    <article
      className={`comment-thread${thread.resolved ? ' is-resolved' : ''}`}
      aria-label={`Thread by ${thread.author.name}: ${thread.body.slice(0, 60)}`}
    >
      {[thread, ...thread.replies].map((comment) => (
        <CommentItem key={comment.id} comment={comment} context={context} onChanged={refresh} />
      ))}
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      {replying ? (
        <CommentForm
          label={`Reply to ${thread.author.name}`}
          submitLabel="Reply"
          people={context.people}
          autoFocus
          onSubmit={async (body) => {
            await commentsApi.create(context.slug, { page: context.path, body, parent_id: thread.id });
            setReplying(false);
            await refresh();
          }}
          onCancel={() => setReplying(false)}
        />
      ) : (
        <div className="comment-thread-actions">
          {context.mayComment && !thread.resolved && (
            <button type="button" className="button small" onClick={() => setReplying(true)}>
              Reply
            </button>
          )}
          {canEdit(context.role) && (
            <button type="button" className="button small" onClick={() => void setResolved(!thread.resolved)}>
              {thread.resolved ? 'Reopen' : 'Resolve'}
            </button>
          )}
        </div>
      )}
    </article>
  );
}

function CommentItem({
  comment,
  context,
  onChanged,
}: {
  comment: Comment;
  context: ThreadContext;
  onChanged: () => Promise<unknown>;
}) {
  const [mode, setMode] = useState<'show' | 'edit' | 'confirm-delete'>('show');
  const [problem, setProblem] = useState<string | null>(null);
  const own = comment.author.id === context.me;
  const mayEdit = own && context.mayComment;
  const mayDelete = (own && context.mayComment) || isAdmin(context.role);
  const edited = comment.updated_at !== comment.created_at;

  const remove = async () => {
    setProblem(null);
    try {
      await commentsApi.remove(comment.id);
      await onChanged();
    } catch (error) {
      setProblem(errorText(error));
      setMode('show');
    }
  };

  return (
    <div className="comment">
      <p className="comment-meta">
        <span className="comment-author">{comment.author.name}</span>{' '}
        <time dateTime={comment.created_at}>{new Date(comment.created_at).toLocaleString()}</time>
        {edited && <span className="comment-edited"> (edited)</span>}
      </p>
      {mode === 'edit' ? (
        <CommentForm
          label="Edit comment"
          submitLabel="Save"
          initial={comment.body}
          people={context.people}
          autoFocus
          onSubmit={async (body) => {
            await commentsApi.update(comment.id, body);
            setMode('show');
            await onChanged();
          }}
          onCancel={() => setMode('show')}
        />
      ) : (
        // The server renders comment Markdown to safe HTML (no raw HTML, safe links).
        <div className="comment-body" dangerouslySetInnerHTML={{ __html: comment.body_html }} />
      )}
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      {mode === 'show' && (mayEdit || mayDelete) && (
        <div className="comment-actions">
          {mayEdit && (
            <button type="button" className="button small ghost" onClick={() => setMode('edit')}>
              Edit
            </button>
          )}
          {mayDelete && (
            <button
              type="button"
              className="button small ghost danger-outline"
              onClick={() => setMode('confirm-delete')}
            >
              Delete
            </button>
          )}
        </div>
      )}
      {mode === 'confirm-delete' && (
        <div className="comment-actions" role="group" aria-label="Delete this comment?">
          <span className="comment-confirm">
            {comment.parent_id ? 'Delete this reply?' : 'Delete this comment and its replies?'}
          </span>
          <button type="button" className="button small danger" autoFocus onClick={() => void remove()}>
            Confirm delete
          </button>
          <button type="button" className="button small" onClick={() => setMode('show')}>
            Keep
          </button>
        </div>
      )}
    </div>
  );
}
