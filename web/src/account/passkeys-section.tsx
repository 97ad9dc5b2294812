import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { usePasskeys } from '../api/queries';
import type { Passkey } from '../../../src/contract/auth';
import { passkeyErrorText, registerPasskey } from '../auth/passkey-ceremonies';
import { Field } from '../ui/field';
import { FormError } from '../ui/form-error';
import { accountKeys } from '../api/query-keys';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'Never');

/** Account → Passkeys: add one on this device, rename or delete the stored ones. */
export function PasskeysSection() {
  const passkeys = usePasskeys();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: accountKeys.passkeys() });
  const add = useMutation({
    mutationFn: (name: string) => registerPasskey(name.trim() || undefined),
    onSuccess: refresh,
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    add.mutate(String(new FormData(form).get('name') ?? ''), { onSuccess: () => form.reset() });
  };
  return (
    <section className="account-section" aria-labelledby="passkeys-heading">
      <h2 id="passkeys-heading">Passkeys</h2>
      <p className="hint">
        Sign in with your fingerprint, face or device PIN instead of a password. Each device or password
        manager holds its own passkey.
      </p>
      {passkeys.isError && <FormError error={passkeys.error} />}
      {passkeys.data && passkeys.data.length === 0 && <p>No passkeys yet.</p>}
      {passkeys.data && passkeys.data.length > 0 && (
        <ul className="item-list" aria-label="Your passkeys">
          {passkeys.data.map((p) => (
            <PasskeyItem key={p.id} passkey={p} onChange={refresh} />
          ))}
        </ul>
      )}
      <form onSubmit={submit} className="inline-form">
        <Field label="Passkey name" name="name" maxLength={100} placeholder="e.g. Work laptop" />
        <button type="submit" className="button primary" disabled={add.isPending}>
          Add a passkey
        </button>
      </form>
      {add.isError && (
        <p className="form-error" role="alert">
          {passkeyErrorText(add.error)}
        </p>
      )}
    </section>
  );
}

function PasskeyItem({ passkey, onChange }: { passkey: Passkey; onChange: () => unknown }) {
  const [mode, setMode] = useState<'view' | 'rename' | 'delete'>('view');
  const rename = useMutation({
    mutationFn: (name: string) => api('PATCH', `/api/auth/webauthn/credentials/${passkey.id}`, { name }),
    onSuccess: async () => {
      await onChange();
      setMode('view');
    },
  });
  const remove = useMutation({
    mutationFn: () => api('DELETE', `/api/auth/webauthn/credentials/${passkey.id}`),
    onSuccess: onChange,
  });
  const submitRename = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    rename.mutate(String(new FormData(event.currentTarget).get('name') ?? ''));
  };
  return (
    <li className="item">
      {mode === 'rename' ? (
        <form onSubmit={submitRename} className="inline-form">
          <Field
            label={`New name for ${passkey.name}`}
            name="name"
            defaultValue={passkey.name}
            maxLength={100}
            required
            autoFocus
          />
          <div className="item-actions">
            <button type="submit" className="button primary small" disabled={rename.isPending}>
              Save
            </button>
            <button type="button" className="button small" onClick={() => setMode('view')}>
              Cancel
            </button>
          </div>
          <FormError error={rename.error} />
        </form>
      ) : (
        <>
          <div className="item-text">
            <strong>{passkey.name}</strong>
            <span className="hint">
              Added {when(passkey.created_at)} · Last used {when(passkey.last_used_at)}
              {passkey.backed_up ? ' · Synced' : ''}
            </span>
          </div>
          {mode === 'delete' ? (
            <div className="item-actions" role="group" aria-label={`Delete ${passkey.name}?`}>
              <button
                type="button"
                className="button danger small"
                disabled={remove.isPending}
                onClick={() => remove.mutate()}
                autoFocus
              >
                Delete passkey {passkey.name}
              </button>
              <button type="button" className="button small" onClick={() => setMode('view')}>
                Keep
              </button>
            </div>
          ) : (
            <div className="item-actions">
              <button
                type="button"
                className="button small"
                aria-label={`Rename ${passkey.name}`}
                onClick={() => setMode('rename')}
              >
                Rename
              </button>
              <button
                type="button"
                className="button danger-outline small"
                aria-label={`Delete ${passkey.name}`}
                onClick={() => setMode('delete')}
              >
                Delete
              </button>
            </div>
          )}
          <FormError error={remove.error} />
        </>
      )}
    </li>
  );
}
