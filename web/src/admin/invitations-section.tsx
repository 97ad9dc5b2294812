import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import type { Invitation } from '../../../src/contract/invitations';
import { ROLE_NAMES, type Role, type Workspace } from '../api/types';
import { CopyField } from '../ui/copy-field';
import { Field } from '../ui/field';
import { FormError } from '../ui/form-error';
import { Loading } from '../ui/loading';
import { RoleField } from './role-select';
import { shortDate, useWorkspaceList } from './workspace-list';

/**
 * Invite by email with a role (POST …/invitations), list the pending ones with their
 * expiry, revoke one. Without mail configured the server answers the link itself, which
 * the screen shows to copy and send by other means.
 */
export function InvitationsSection({ workspace }: { workspace: Workspace }) {
  const { url, list: pending, refresh } = useWorkspaceList<Invitation>(workspace, 'invitations');
  const [sentLink, setSentLink] = useState<{ email: string; link: string | null } | null>(null);
  const invite = useMutation({
    mutationFn: (body: { email: string; role: Role }) => api<Invitation>('POST', url, body),
    onSuccess: async (created, body) => {
      setSentLink({ email: body.email, link: created.token ? created.accept_url : null });
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
    setSentLink(null);
    invite.mutate({ email: String(form.get('email')).trim(), role: form.get('role') as Role });
    event.currentTarget.reset();
  };
  return (
    <>
      <form className="account-section" onSubmit={submit} aria-labelledby="invite-heading">
        <h2 id="invite-heading">Invite someone</h2>
        <div className="inline-form">
          <Field label="Email" name="email" type="email" required autoComplete="off" />
          <RoleField granter={workspace.role} defaultValue="editor" />
          <button type="submit" className="button primary" disabled={invite.isPending}>
            Send invitation
          </button>
        </div>
        <FormError error={invite.error} />
        {sentLink &&
          (sentLink.link ? (
            <div role="status">
              <p>Mail is not set up on this server, so send {sentLink.email} this link yourself:</p>
              <CopyField label="Invitation link" value={sentLink.link} />
            </div>
          ) : (
            <p role="status">Invitation mailed to {sentLink.email}.</p>
          ))}
      </form>
      <section className="account-section" aria-labelledby="pending-heading">
        <h2 id="pending-heading">Pending invitations</h2>
        {pending.isPending && <Loading label="Loading the invitations…" />}
        <FormError error={pending.error ?? revoke.error} />
        {pending.data?.length === 0 && <p className="hint">No invitation is waiting to be accepted.</p>}
        {pending.data && pending.data.length > 0 && (
          <ul className="item-list">
            {pending.data.map((invitation) => (
              <li key={invitation.id} className="item">
                <div className="item-text">
                  <strong>{invitation.email}</strong>
                  <span className="hint">
                    {ROLE_NAMES[invitation.role]} · expires {shortDate(invitation.expires_at)}
                  </span>
                </div>
                <div className="item-actions">
                  <button
                    type="button"
                    className="button small danger-outline"
                    aria-label={`Revoke the invitation for ${invitation.email}`}
                    disabled={revoke.isPending}
                    onClick={() => revoke.mutate(invitation.id)}
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
