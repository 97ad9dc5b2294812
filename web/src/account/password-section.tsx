import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { Field } from '../ui/field';
import { FormError } from '../ui/form-error';
import { accountKeys } from '../api/query-keys';

/**
 * Account → Password: the current one, then the new one twice. Other devices are signed
 * out; this one carries on with the fresh session the server answers.
 */
export function PasswordSection() {
  const queryClient = useQueryClient();
  const [mismatch, setMismatch] = useState(false);
  const change = useMutation({
    mutationFn: (body: { current_password: string; new_password: string }) =>
      api('POST', '/api/auth/change-password', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.sessions() }),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const next = String(data.get('new'));
    setMismatch(next !== String(data.get('confirm')));
    if (next !== String(data.get('confirm'))) return;
    change.mutate(
      { current_password: String(data.get('current')), new_password: next },
      { onSuccess: () => form.reset() },
    );
  };
  return (
    <form className="account-section" onSubmit={submit} aria-labelledby="password-heading">
      <h2 id="password-heading">Password</h2>
      <p className="hint">
        At least 8 characters. Changing it signs you out on your other devices. Signed up with an identity
        provider and never set one? Leave the current password empty.
      </p>
      <div className="stacked-form">
        <Field label="Current password" name="current" type="password" autoComplete="current-password" />
        <Field
          label="New password"
          name="new"
          type="password"
          required
          minLength={8}
          autoComplete="new-password"
        />
        <Field
          label="New password again"
          name="confirm"
          type="password"
          required
          minLength={8}
          autoComplete="new-password"
        />
      </div>
      <button type="submit" className="button primary" disabled={change.isPending}>
        Change password
      </button>
      {mismatch && (
        <p className="form-error" role="alert">
          The two new passwords differ.
        </p>
      )}
      {change.isSuccess && !mismatch && (
        <p className="hint" role="status">
          Password changed. Your other devices were signed out.
        </p>
      )}
      <FormError error={change.error} />
    </form>
  );
}
