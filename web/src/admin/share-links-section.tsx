import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import type { ShareLink } from '../../../src/contract/share-links';
import { ROLE_NAMES, type Role, type Workspace } from '../api/types';
import { CopyField } from '../ui/copy-field';
import { Field } from '../ui/field';
import { FormError } from '../ui/form-error';
import { Loading } from '../ui/loading';
import { RoleField } from './role-select';
import { shortDate, useWorkspaceList } from './workspace-list';

/** "Used 1 of 3 times", "Used 1 time". */
const usesText = ({ uses, max_uses }: ShareLink) =>
  max_uses ? `Used ${uses} of ${max_uses} times` : `Used ${uses} ${uses === 1 ? 'time' : 'times'}`;

/** "2026-12-01" from a date input → the end of that day, local time, as the API's ISO timestamp. */
const endOfDay = (day: string) => new Date(`${day}T23:59:59`).toISOString();

/**
 * Share links (…/share-links): anyone signed in who opens one joins with its role. The
 * link itself is shown once, on creation, to copy; afterwards only its uses and limits.
 */
export function ShareLinksSection({ workspace }: { workspace: Workspace }) {
  const { url, list: links, refresh } = useWorkspaceList<ShareLink>(workspace, 'share-links');
  const [created, setCreated] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (body: { role: Role; expires_at: string | null; max_uses: number | null }) =>
      api<ShareLink>('POST', url, body),
    onSuccess: async (link) => {
      setCreated(link.url ?? null);
      await refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => api<void>('DELETE', `${url}/${id}`),
    onSuccess: refresh,
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const expires = String(form.get('expires') ?? '');
    const uses = String(form.get('max_uses') ?? '');
    setCreated(null);
    create.mutate({
      role: form.get('role') as Role,
      expires_at: expires ? endOfDay(expires) : null,
      max_uses: uses ? Number(uses) : null,
    });
  };
  return (
    <>
      <form className="account-section" onSubmit={submit} aria-labelledby="new-link-heading">
        <h2 id="new-link-heading">New share link</h2>
        <div className="inline-form">
          <RoleField granter={workspace.role} defaultValue="viewer" />
          <Field label="Expires on" name="expires" type="date" hint="Leave empty: never expires." />
          <Field label="Maximum uses" name="max_uses" type="number" min={1} hint="Leave empty: no limit." />
        </div>
        <FormError error={create.error} />
        <div className="dialog-actions">
          <button type="submit" className="button primary" disabled={create.isPending}>
            Create link
          </button>
        </div>
        {created && (
          <div role="status">
            <p>Copy the link now: it is not shown again.</p>
            <CopyField label="Share link" value={created} />
          </div>
        )}
      </form>
      <section className="account-section" aria-labelledby="links-heading">
        <h2 id="links-heading">Active links</h2>
        {links.isPending && <Loading label="Loading the links…" />}
        <FormError error={links.error ?? revoke.error} />
        {links.data?.length === 0 && <p className="hint">No share link is active.</p>}
        {links.data && links.data.length > 0 && (
          <ul className="item-list">
            {links.data.map((link) => (
              <li key={link.id} className="item">
                <div className="item-text">
                  <strong>{ROLE_NAMES[link.role]}</strong>
                  <span className="hint">
                    {usesText(link)} ·{' '}
                    {link.expires_at ? `expires ${shortDate(link.expires_at)}` : 'never expires'} · created{' '}
                    {shortDate(link.created_at)}
                  </span>
                </div>
                <div className="item-actions">
                  <button
                    type="button"
                    className="button small danger-outline"
                    aria-label={`Revoke the ${ROLE_NAMES[link.role]} link created ${shortDate(link.created_at)}`}
                    disabled={revoke.isPending}
                    onClick={() => revoke.mutate(link.id)}
                  >
                    Revoke
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
