import { useMutation } from '@tanstack/react-query';
import { type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../api/client';
import { useMe } from '../api/queries';
import { canAdminister, canEdit, type Workspace } from '../api/types';
import { FormError } from '../ui/form-error';
import { Loading } from '../ui/loading';
import { type ChangeRequest, requestsUrl, useRefreshRequests, useRequest, type Verdict } from './cr-api';
import { DiffView } from './diff-view';
import { editUrl } from './request-list';
import { ReviewForm } from './review-form';

const CHANGE_WORDS = { created: 'New page', updated: 'Changed', moved: 'Moved', deleted: 'Deleted' } as const;
const VERDICT_WORDS: Record<Verdict, string> = {
  approve: 'Approved',
  request_changes: 'Asked for changes',
  comment: 'Commented',
};

/** One change request: what it changes page by page, its reviews, and review, merge and close. */
export function RequestDetail({ workspace, number }: { workspace: Workspace; number: number }) {
  const request = useRequest(workspace, number);
  const refresh = useRefreshRequests(workspace);
  const me = useMe();
  const navigate = useNavigate();
  const act = useMutation({
    mutationFn: (what: 'merge' | 'close') =>
      api<ChangeRequest>('POST', requestsUrl(workspace, `/${number}/${what}`)),
    onSuccess: refresh,
  });
  if (request.isPending) return <Loading label="Loading the change request…" />;
  if (!request.data) return <FormError error={request.error} />;
  const cr = request.data;
  const open = cr.status === 'open';
  const editor = canEdit(workspace.role);
  const mayMerge = canAdminister(workspace.role) || (editor && cr.approvals >= cr.required_approvals);
  const editPage = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const page = String(new FormData(event.currentTarget).get('page')).trim();
    if (page) void navigate(editUrl(workspace.slug, number, page));
  };
  return (
    <>
      <h1>
        #{cr.number} {cr.title}
      </h1>
      <p>
        <span className={`badge ${cr.status === 'merged' ? 'success' : ''}`}>{cr.status}</span>{' '}
        <span className="hint">
          {cr.branch} · {cr.approvals} of {cr.required_approvals} required approvals
        </span>
      </p>
      {cr.description && <p className="cr-description">{cr.description}</p>}
      {open && editor && (
        <div className="cr-actions">
          <button
            type="button"
            className="button primary"
            disabled={act.isPending || !mayMerge}
            onClick={() => act.mutate('merge')}
          >
            Merge
          </button>
          <button
            type="button"
            className="button danger-outline"
            disabled={act.isPending}
            onClick={() => act.mutate('close')}
          >
            Close request
          </button>
          {!mayMerge && <span className="hint">It needs more approvals before you can merge it.</span>}
        </div>
      )}
      <FormError error={act.error} />
      {act.isSuccess && (
        <p className="banner info" role="status">
          Change request {act.data.status}.
        </p>
      )}
      {open && editor && (
        <form
          className="inline-form cr-edit-form"
          onSubmit={editPage}
          aria-label="Edit a page in this change request"
        >
          <div className="field">
            <label htmlFor="cr-edit-page">Page path</label>
            <input id="cr-edit-page" name="page" required placeholder="guides/start.md" list="cr-pages" />
            <datalist id="cr-pages">
              {cr.pages.map((p) => (
                <option key={p.path} value={p.path} />
              ))}
            </datalist>
          </div>
          <button type="submit" className="button">
            Edit page
          </button>
        </form>
      )}
      <section aria-labelledby="cr-changes-heading">
        <h2 id="cr-changes-heading">Changes</h2>
        {cr.pages.length === 0 && <p className="hint">No page changed yet.</p>}
        {cr.pages.map((p) => (
          <article key={p.path} className="cr-page">
            <h3>
              {CHANGE_WORDS[p.change]}: {p.old_path ? `${p.old_path} → ${p.path}` : p.path}
            </h3>
            <DiffView diff={p.diff} label={`Diff of ${p.path}`} />
          </article>
        ))}
      </section>
      <section aria-labelledby="cr-reviews-heading">
        <h2 id="cr-reviews-heading">Reviews</h2>
        {cr.reviews.length === 0 && <p className="hint">No review yet.</p>}
        <ul className="item-list">
          {cr.reviews.map((r) => (
            <li key={r.id} className="item cr-review">
              <div className="item-text">
                <strong>
                  {r.reviewer_name ?? 'Someone'}: {VERDICT_WORDS[r.verdict]}
                </strong>
                {r.body && <span>{r.body}</span>}
                {r.comments.map((c) => (
                  <span key={`${c.page}:${c.line}:${c.body}`} className="hint">
                    {c.page}, line {c.line}: {c.body}
                  </span>
                ))}
              </div>
            </li>
          ))}
        </ul>
        {open && workspace.role !== 'viewer' && (
          <ReviewForm
            workspace={workspace}
            number={number}
            pages={cr.pages.map((p) => p.path)}
            selfReview={cr.author !== null && cr.author === me.data?.id}
            canGiveVerdict={editor}
            onReviewed={refresh}
          />
        )}
      </section>
    </>
  );
}
