import { useMutation } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { api } from '../../api/client';
import { ConfirmButton } from '../../ui/confirm-button';
import { Field } from '../../ui/field';
import { FormError } from '../../ui/form-error';
import type { GitWorkspace } from './git-types';

/** The remote's URL and branch: connect, change or disconnect. */
export function RemoteForm({ workspace, onSaved }: { workspace: GitWorkspace; onSaved: () => void }) {
  const url = `/api/v1/workspaces/${workspace.id}/git-remote`;
  const save = useMutation({
    mutationFn: (body: { git_remote: string | null; git_branch?: string }) => api('PUT', url, body),
    onSuccess: onSaved,
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    save.mutate({
      git_remote: String(form.get('remote')).trim(),
      git_branch: String(form.get('branch')).trim() || undefined,
    });
  };
  return (
    <form className="account-section" onSubmit={submit} aria-labelledby="remote-heading">
      <h2 id="remote-heading">Remote</h2>
      <p className="hint">
        Folio pulls from and pushes to this repository. Use an HTTPS address with credentials below, or an SSH
        address with the deploy key.
      </p>
      {/* Keyed by the stored values, so the fields show what was saved after each change. */}
      <div className="inline-form" key={`${workspace.git_remote}|${workspace.git_branch}`}>
        <Field
          label="Repository URL"
          name="remote"
          required
          defaultValue={workspace.git_remote ?? ''}
          placeholder="https://github.com/acme/docs.git"
          autoComplete="off"
          spellCheck={false}
        />
        <Field label="Branch" name="branch" defaultValue={workspace.git_branch} autoComplete="off" />
        <button type="submit" className="button primary" disabled={save.isPending}>
          {workspace.git_remote ? 'Save remote' : 'Connect'}
        </button>
      </div>
      {save.isSuccess && (
        <p className="hint" role="status">
          Remote saved.
        </p>
      )}
      <FormError error={save.error} />
      {workspace.git_remote && (
        <div className="item-actions">
          <ConfirmButton
            label="Disconnect…"
            confirmLabel="Disconnect the remote"
            small
            busy={save.isPending}
            onConfirm={() => save.mutate({ git_remote: null })}
          />
        </div>
      )}
    </form>
  );
}
