import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api } from '../api/client';
import { canEdit, type Workspace } from '../api/types';
import { Field } from '../ui/field';
import { FormError } from '../ui/form-error';
import { Loading } from '../ui/loading';
import {
  type ChangeRequest,
  type RequestStatus,
  requestsUrl,
  useRefreshRequests,
  useRequests,
} from './cr-api';

const STATES: RequestStatus[] = ['open', 'merged', 'closed'];

/** Where editing `page` inside request `n` happens. */
export const editUrl = (slug: string, n: number, page: string) =>
  `/w/${slug}/change-requests/${n}/edit/${page.split('/').map(encodeURIComponent).join('/')}`;

/**
 * The requests of one state, and a form to open one. With `?edit=<page>` (from the editor's
 * "Edit in a change request") choosing or opening a request goes straight to editing that page.
 */
export function RequestList({ workspace }: { workspace: Workspace }) {
  const [params] = useSearchParams();
  const editing = params.get('edit');
  const [status, setStatus] = useState<RequestStatus>('open');
  const requests = useRequests(workspace, status);
  const refresh = useRefreshRequests(workspace);
  const navigate = useNavigate();
  const target = (n: number) =>
    editing ? editUrl(workspace.slug, n, editing) : `/w/${workspace.slug}/change-requests/${n}`;
  const create = useMutation({
    mutationFn: (body: { title: string; description: string }) =>
      api<ChangeRequest>('POST', requestsUrl(workspace), body),
    onSuccess: async (created) => {
      await refresh();
      void navigate(target(created.number));
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    create.mutate({ title: String(form.get('title')).trim(), description: String(form.get('description')) });
  };
  return (
    <>
      <h1>Change requests</h1>
      {editing && (
        <p className="banner info" role="status">
          Choose an open change request to edit <strong>{editing}</strong> in, or open a new one.
        </p>
      )}
      {canEdit(workspace.role) && (
        <form className="account-section" onSubmit={submit} aria-labelledby="new-request-heading">
          <h2 id="new-request-heading">New change request</h2>
          <p className="hint">Edits made in a change request reach the live pages only when it is merged.</p>
          <Field label="Title" name="title" required maxLength={200} />
          <div className="field">
            <label htmlFor="new-request-description">Description</label>
            <textarea id="new-request-description" name="description" rows={3} maxLength={20000} />
          </div>
          <button type="submit" className="button primary" disabled={create.isPending}>
            Open change request
          </button>
          <FormError error={create.error} />
        </form>
      )}
      <section className="account-section" aria-labelledby="requests-heading">
        <h2 id="requests-heading">Requests</h2>
        <div className="field">
          <label htmlFor="request-status">Show</label>
          <select
            id="request-status"
            value={status}
            onChange={(e) => setStatus(e.target.value as RequestStatus)}
          >
            {STATES.map((s) => (
              <option key={s} value={s}>
                {s[0]!.toUpperCase() + s.slice(1)}
              </option>
            ))}
          </select>
        </div>
        {requests.isPending && <Loading label="Loading the change requests…" />}
        <FormError error={requests.error} />
        {requests.data?.length === 0 && <p className="hint">No {status} change request.</p>}
        {requests.data && requests.data.length > 0 && (
          <ul className="item-list">
            {requests.data.map((cr) => (
              <li key={cr.number} className="item">
                <div className="item-text">
                  <Link to={target(cr.number)}>
                    #{cr.number} {cr.title}
                  </Link>
                  <span className="hint">
                    {cr.status} · {cr.approvals} of {cr.required_approvals} required approvals
                  </span>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
