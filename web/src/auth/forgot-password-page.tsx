import { useMutation } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Link } from 'react-router';
import { api } from '../api/client';
import { Field } from '../ui/field';
import { FormError } from '../ui/form-error';
import { AuthLayout } from './auth-layout';

/** `/forgot-password`: asks for a reset link; the answer never says whether the address exists. */
export function ForgotPasswordPage() {
  const forgot = useMutation({
    mutationFn: (email: string) => api('POST', '/api/auth/forgot-password', { email }),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    forgot.mutate(String(new FormData(event.currentTarget).get('email')));
  };
  return (
    <AuthLayout title="Reset your password">
      {forgot.isSuccess ? (
        <p role="status">If an account exists for that address, a reset link is on its way.</p>
      ) : (
        <form onSubmit={submit} className="stack">
          <Field label="Email" name="email" type="email" autoComplete="email" required autoFocus />
          <FormError error={forgot.error} />
          <button type="submit" className="button primary" disabled={forgot.isPending}>
            Send reset link
          </button>
        </form>
      )}
      <p className="auth-links">
        <Link to="/login">Back to sign in</Link>
      </p>
    </AuthLayout>
  );
}
