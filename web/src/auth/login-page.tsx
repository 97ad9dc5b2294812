import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { api } from '../api/client';
import { Field } from '../ui/field';
import { FormError } from '../ui/form-error';
import { AuthLayout } from './auth-layout';
import { nextPath } from './next-path';
import { SignInOptions } from './sign-in-options';

/** `/login`: email and password; the API sets the session cookies. */
export function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const signedIn = () => {
    queryClient.clear();
    navigate(nextPath(location.search), { replace: true });
  };
  const login = useMutation({
    mutationFn: (form: { email: string; password: string }) => api('POST', '/api/auth/login', form),
    onSuccess: signedIn,
  });
  // A provider sign-in that failed comes back here with a sentence to show.
  const providerError = new URLSearchParams(location.search).get('error');
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    login.mutate({ email: String(data.get('email')), password: String(data.get('password')) });
  };
  return (
    <AuthLayout title="Sign in to Folio">
      {providerError && (
        <p className="form-error" role="alert">
          {providerError}
        </p>
      )}
      <form onSubmit={submit} className="stack">
        <Field label="Email" name="email" type="email" autoComplete="email" required autoFocus />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required />
        <FormError error={login.error} />
        <button type="submit" className="button primary" disabled={login.isPending}>
          Sign in
        </button>
      </form>
      <SignInOptions onSignedIn={signedIn} />
      <p className="auth-links">
        <Link to="/forgot-password">Forgot your password?</Link>
        <span>
          New here? <Link to={`/register${location.search}`}>Create an account</Link>
        </span>
      </p>
    </AuthLayout>
  );
}
