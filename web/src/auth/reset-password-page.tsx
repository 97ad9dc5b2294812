import { useMutation } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api } from '../api/client';
import { Field } from '../ui/field';
import { FormError } from '../ui/form-error';
import { AuthLayout } from './auth-layout';

/** `/reset-password?token=…`: the page the mailed and printed reset links open. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const reset = useMutation({
    mutationFn: (password: string) =>
      api('POST', '/api/auth/reset-password', { token, new_password: password }),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    reset.mutate(String(new FormData(event.currentTarget).get('password')));
  };
  return (
    <AuthLayout title="Choose a new password">
      {reset.isSuccess ? (
        <p role="status">
          Your password was changed and every session signed out. <Link to="/login">Sign in</Link>
        </p>
      ) : (
        <form onSubmit={submit} className="stack">
          <Field
            label="New password"
            name="password"
            type="password"
            autoComplete="new-password"
            minLength={8}
            required
            autoFocus
            hint="At least 8 characters."
          />
          <FormError error={reset.error} />
          <button type="submit" className="button primary" disabled={reset.isPending || !token}>
            Set new password
          </button>
        </form>
      )}
    </AuthLayout>
  );
}
