import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import type { Workspace } from '../api/types';
import { FormError } from '../ui/form-error';
import { requestsUrl, type Review, type Verdict } from './cr-api';

interface ReviewFormProps {
  workspace: Workspace;
  number: number;
  pages: string[];
  /** The author reviewing their own request: approving is not offered. */
  selfReview: boolean;
  /** Editors may approve or ask for changes; commenters only comment. */
  canGiveVerdict: boolean;
  onReviewed: () => unknown;
}

/** A review: a verdict, a body, and optionally one inline comment on a line of a changed page. */
export function ReviewForm({
  workspace,
  number,
  pages,
  selfReview,
  canGiveVerdict,
  onReviewed,
}: ReviewFormProps) {
  const [verdict, setVerdict] = useState<Verdict>('comment');
  const review = useMutation({
    mutationFn: (body: unknown) => api<Review>('POST', requestsUrl(workspace, `/${number}/reviews`), body),
    onSuccess: onReviewed,
  });
  const verdicts: Array<[Verdict, string]> = [['comment', 'Comment']];
  if (canGiveVerdict && !selfReview) verdicts.push(['approve', 'Approve']);
  if (canGiveVerdict) verdicts.push(['request_changes', 'Request changes']);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const page = String(form.get('page') ?? '');
    const line = Number(form.get('line'));
    const note = String(form.get('note') ?? '').trim();
    const comments = page && line > 0 && note ? [{ page, line, body: note }] : [];
    review.mutate({ verdict, body: String(form.get('body')), comments });
    event.currentTarget.reset();
    setVerdict('comment');
  };
  return (
    <form className="account-section" onSubmit={submit} aria-labelledby="cr-review-heading">
      <h3 id="cr-review-heading">Your review</h3>
      <fieldset className="cr-verdicts">
        <legend>Verdict</legend>
        {verdicts.map(([value, label]) => (
          <label key={value}>
            <input
              type="radio"
              name="verdict"
              value={value}
              checked={verdict === value}
              onChange={() => setVerdict(value)}
            />{' '}
            {label}
          </label>
        ))}
      </fieldset>
      <div className="field">
        <label htmlFor="cr-review-body">Review</label>
        <textarea id="cr-review-body" name="body" rows={3} maxLength={20000} />
      </div>
      {pages.length > 0 && (
        <fieldset className="cr-inline-comment">
          <legend>Comment on a line (optional)</legend>
          <div className="field">
            <label htmlFor="cr-comment-page">Page</label>
            <select id="cr-comment-page" name="page" defaultValue="">
              <option value="">No line comment</option>
              {pages.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="cr-comment-line">Line</label>
            <input id="cr-comment-line" name="line" type="number" min={1} inputMode="numeric" />
          </div>
          <div className="field">
            <label htmlFor="cr-comment-note">Line comment</label>
            <input id="cr-comment-note" name="note" maxLength={20000} />
          </div>
        </fieldset>
      )}
      <button type="submit" className="button primary" disabled={review.isPending}>
        Submit review
      </button>
      <FormError error={review.error} />
    </form>
  );
}
