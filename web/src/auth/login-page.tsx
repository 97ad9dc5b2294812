import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { api } from '../api/client';
import { Field } from '../ui/field';
import { FormError } from '../ui/form-error';
import { AuthLayout } from './auth-layout';
import { nextPath } from './next-path';

/** `/login`: email and password; the API sets the session cookies. */
export function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const login = useMutation({
    mutationFn: (form: { email: string; password: string }) => api('POST', '/api/auth/login', form),
    onSuccess: async () => {
      queryClient.clear();
      navigate(nextPath(location.search), { replace: true });
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    login.mutate({ email: String(data.get('email')), password: String(data.get('password')) });
  };
  return (
    <AuthLayout title="Sign in to Folio">
      <form onSubmit={submit} className="stack">
        <Field label="Email" name="email" type="email" autoComplete="email" required autoFocus />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required />
        <FormError error={login.error} />
        <button type="submit" className="button primary" disabled={login.isPending}>
          Sign in
        </button>
      </form>
      <p className="auth-links">
        <Link to="/forgot-password">Forgot your password?</Link>
        <span>
          New here? <Link to={`/register${location.search}`}>Create an account</Link>
        </span>
      </p>
    </AuthLayout>
  );
}
