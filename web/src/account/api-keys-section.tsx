import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import type { List } from '../api/types';
import { ConfirmButton } from '../ui/confirm-button';
import { CopyField } from '../ui/copy-field';
import { Field } from '../ui/field';
import { FormError } from '../ui/form-error';
import { Loading } from '../ui/loading';
import { relativeTime } from '../ui/relative-time';
import type { ApiKey, NewApiKey } from '../../../src/contract/api-keys';
import { API_KEY_SCOPES, type ApiKeyScope } from './account-types';
import { accountKeys } from '../api/query-keys';

const SCOPE_TEXT: Record<ApiKeyScope, string> = {
  read: 'read: pages, search, lists',
  write: 'write: create and change',
  delete: 'delete',
  admin: 'admin: everything the account may do',
  'admin:read': 'admin:read: read admin data and metrics',
};
const DEFAULT_SCOPES: readonly ApiKeyScope[] = ['read', 'write', 'delete'];
/** Expiry choices in days; 0 never expires. */
const EXPIRIES = [
  { days: 30, label: 'In 30 days' },
  { days: 90, label: 'In 90 days' },
  { days: 365, label: 'In a year' },
  { days: 0, label: 'Never' },
];

const dayText = (unixSeconds: number) => new Date(unixSeconds * 1000).toLocaleDateString();

/** The full key, shown once right after it was made. */
function NewKey({ created, onDone }: { created: NewApiKey; onDone: () => void }) {
  return (
    <div className="new-key" role="status">
      <p>
        <strong>Copy the key for “{created.name}” now.</strong> You won't see it again; if it is lost, rotate
        or delete it.
      </p>
      <CopyField label="New API key" value={created.key} />
      <button type="button" className="button small" onClick={onDone}>
        Done
      </button>
    </div>
  );
}

/**
 * Account → API keys, for scripts, CI and MCP clients: create one with scopes and an
 * expiry (the key is shown once), see when each was last used, rotate or delete it.
 */
export function ApiKeysSection() {
  const url = '/api/v1/api-keys';
  const queryClient = useQueryClient();
  const keys = useQuery({
    queryKey: accountKeys.apiKeys(),
    queryFn: () => api<List<ApiKey>>('GET', `${url}?limit=100`).then((r) => r.data),
  });
  const [shown, setShown] = useState<NewApiKey | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: accountKeys.apiKeys() });
  const create = useMutation({
    mutationFn: (body: { name: string; scopes: string[]; expires_at: number | null }) =>
      api<NewApiKey>('POST', url, body),
    onSuccess: (created) => {
      setShown(created);
      void refresh();
      void queryClient.invalidateQueries({ queryKey: accountKeys.onboarding() });
    },
  });
  const rotate = useMutation({
    mutationFn: (id: string) => api<NewApiKey>('POST', `${url}/${id}/rotate`),
    onSuccess: (rotated) => {
      setShown(rotated);
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => api('DELETE', `${url}/${id}`),
    onSuccess: refresh,
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const days = Number(data.get('expiry'));
    create.mutate(
      {
        name: String(data.get('name')).trim(),
        scopes: data.getAll('scope').map(String),
        expires_at: days ? Math.floor(Date.now() / 1000) + days * 86_400 : null,
      },
      { onSuccess: () => form.reset() },
    );
  };

  return (
    <section className="account-section" aria-labelledby="api-keys-heading">
      <h2 id="api-keys-heading">API keys</h2>
      <p className="hint">
        Send a key as <code>Authorization: Bearer svc_live_…</code>. A key acts as you, limited to its scopes.
      </p>
      {shown && <NewKey created={shown} onDone={() => setShown(null)} />}
      {keys.isPending && <Loading label="Loading the API keys…" />}
      <FormError error={keys.error ?? rotate.error ?? remove.error} />
      {keys.data?.length === 0 && <p>No API keys yet.</p>}
      {keys.data && keys.data.length > 0 && (
        <ul className="item-list" aria-label="Your API keys">
          {keys.data.map((key) => (
            <li key={key.id} className="item">
              <div className="item-text">
                <strong>{key.name}</strong>
                <span className="hint">
                  <code>{key.prefix}…</code> · {key.scopes.join(', ')} · created{' '}
                  {relativeTime(key.created_at)} ·{' '}
                  {key.last_used_at ? `last used ${relativeTime(key.last_used_at)}` : 'never used'} ·{' '}
                  {key.expires_at ? `expires ${dayText(key.expires_at)}` : 'never expires'}
                </span>
              </div>
              <div className="item-actions">
                <ConfirmButton
                  label="Rotate…"
                  ariaLabel={`Rotate ${key.name}`}
                  confirmLabel={`Rotate ${key.name}`}
                  tone="primary"
                  small
                  busy={rotate.isPending}
                  onConfirm={() => rotate.mutate(key.id)}
                />
                <ConfirmButton
                  label="Delete…"
                  ariaLabel={`Delete ${key.name}`}
                  confirmLabel={`Delete ${key.name}`}
                  small
                  busy={remove.isPending}
                  onConfirm={() => remove.mutate(key.id)}
                />
              </div>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={submit} aria-labelledby="new-key-heading" className="new-key-form">
        <h3 id="new-key-heading">New key</h3>
        <Field label="Key name" name="name" required maxLength={100} placeholder="e.g. CI deploy" />
        <fieldset className="scope-choices">
          <legend>Scopes</legend>
          {API_KEY_SCOPES.map((scope) => (
            <label key={scope} className="check">
              <input
                type="checkbox"
                name="scope"
                value={scope}
                defaultChecked={DEFAULT_SCOPES.includes(scope)}
              />
              {SCOPE_TEXT[scope]}
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label htmlFor="key-expiry">Expires</label>
          <select id="key-expiry" name="expiry" defaultValue="90">
            {EXPIRIES.map((e) => (
              <option key={e.days} value={e.days}>
                {e.label}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button primary" disabled={create.isPending}>
          Create key
        </button>
        <FormError error={create.error} />
      </form>
    </section>
  );
}
