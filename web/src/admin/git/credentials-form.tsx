import { useMutation } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { api } from '../../api/client';
import { ConfirmButton } from '../../ui/confirm-button';
import { Field } from '../../ui/field';
import { FormError } from '../../ui/form-error';
import type { GitWorkspace } from './git-types';

/**
 * HTTPS credentials, write-only: the stored user name is shown, the password or token
 * never is; saving replaces both.
 */
export function CredentialsForm({ workspace, onSaved }: { workspace: GitWorkspace; onSaved: () => void }) {
  const url = `/api/v1/workspaces/${workspace.id}/git-credentials`;
  const save = useMutation({
    mutationFn: (body: { username: string; password: string }) => api('PUT', url, body),
    onSuccess: onSaved,
  });
  const clear = useMutation({ mutationFn: () => api('DELETE', url), onSuccess: onSaved });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    save.mutate({ username: String(form.get('username')).trim(), password: String(form.get('password')) });
    event.currentTarget.reset();
  };
  return (
    <form className="account-section" onSubmit={submit} aria-labelledby="credentials-heading">
      <h2 id="credentials-heading">HTTPS credentials</h2>
      <p className="hint">
        {workspace.git_username
          ? `Stored for ${workspace.git_username}. The password is never shown again; enter a new one to replace it.`
          : 'A user name and a password or access token with read and write access to the repository.'}
      </p>
      <div className="inline-form">
        <Field label="User name" name="username" required autoComplete="off" spellCheck={false} />
        <Field
          label="Password or token"
          name="password"
          type="password"
          required
          autoComplete="new-password"
        />
        <button type="submit" className="button" disabled={save.isPending}>
          Save credentials
        </button>
      </div>
      {save.isSuccess && (
        <p className="hint" role="status">
          Credentials saved.
        </p>
      )}
      <FormError error={save.error ?? clear.error} />
      {workspace.git_username && (
        <div className="item-actions">
          <ConfirmButton
            label="Remove credentials…"
            confirmLabel="Remove the credentials"
            small
            busy={clear.isPending}
            onConfirm={() => clear.mutate()}
          />
        </div>
      )}
    </form>
  );
}
