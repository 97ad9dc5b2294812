import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api/client';
import { useMe } from '../api/queries';
import { ConfirmButton } from '../ui/confirm-button';
import { Field } from '../ui/field';
import { FormError } from '../ui/form-error';
import { Loading } from '../ui/loading';
import { usePagedList } from './paged-list';
import type { AdminUser, ImpersonationTokens } from '../../../src/contract/platform-admin';
import { when } from './platform-api';
import { platformKeys } from '../api/query-keys';

/** Users: search, export, impersonation (with a reason for the audit log) and deletion. */
export function UsersSection() {
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  const users = usePagedList<AdminUser>(platformKeys.users(), '/api/v1/admin/users', q ? { q } : {});
  return (
    <section className="account-section" aria-label="Users">
      <form
        className="platform-search"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setQ(search.trim());
        }}
      >
        <Field label="Find a user" value={search} onChange={(e) => setSearch(e.target.value)} />
        <button type="submit" className="button">
          Search
        </button>
      </form>
      {users.isPending && <Loading label="Loading the users…" />}
      <FormError error={users.error} />
      <ul className="item-list" aria-label="Users">
        {users.items.map((user) => (
          <UserRow key={user.id} user={user} />
        ))}
      </ul>
      {users.hasMore && (
        <button type="button" className="button" disabled={users.loadingMore} onClick={users.more}>
          Show more users
        </button>
      )}
    </section>
  );
}

function UserRow({ user }: { user: AdminUser }) {
  const queryClient = useQueryClient();
  const me = useMe();
  const [reason, setReason] = useState('');
  const [asking, setAsking] = useState(false);
  const impersonate = useMutation({
    mutationFn: () =>
      api<ImpersonationTokens>('POST', `/api/v1/admin/users/${user.id}/impersonate`, { reason }),
    // The session cookies are now the user's: reload the app as them.
    onSuccess: () => window.location.assign('/'),
  });
  const remove = useMutation({
    mutationFn: () => api<void>('DELETE', `/api/v1/admin/users/${user.id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: platformKeys.users() }),
  });
  const active = !user.deleted_at && user.id !== me.data?.id;
  return (
    <li className="item">
      <div className="item-text">
        <strong>
          {user.name} {user.is_platform_owner && <span className="badge">Platform owner</span>}
          {user.deleted_at && <span className="badge">Deleted</span>}
        </strong>
        <span className="hint">
          {user.email} · joined {when(user.created_at)}
        </span>
      </div>
      <div className="item-actions">
        <a
          className="button small"
          href={`/api/v1/admin/users/${user.id}/export`}
          download
          aria-label={`Export the data of ${user.name}`}
        >
          Export
        </a>
        {active && !asking && (
          <button
            type="button"
            className="button small"
            onClick={() => setAsking(true)}
            aria-label={`Impersonate ${user.name}…`}
          >
            Impersonate…
          </button>
        )}
        {active && (
          <ConfirmButton
            small
            label="Delete…"
            ariaLabel={`Delete ${user.name}…`}
            confirmLabel={`Delete ${user.name}`}
            busy={remove.isPending}
            onConfirm={() => remove.mutate()}
          />
        )}
      </div>
      {asking && (
        <form
          className="platform-search"
          onSubmit={(e) => {
            e.preventDefault();
            impersonate.mutate();
          }}
        >
          <Field
            label={`Why impersonate ${user.name}?`}
            hint="Recorded in the audit log."
            value={reason}
            required
            autoFocus
            onChange={(e) => setReason(e.target.value)}
          />
          <button type="button" className="button" onClick={() => setAsking(false)}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={!reason.trim() || impersonate.isPending}>
            Impersonate {user.name}
          </button>
        </form>
      )}
      <FormError error={impersonate.error ?? remove.error} />
    </li>
  );
}
