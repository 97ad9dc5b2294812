import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { api } from '../api/client';
import { Field } from '../ui/field';
import { FormError } from '../ui/form-error';
import { AuthLayout } from './auth-layout';
import { nextPath } from './next-path';

interface RegisterForm {
  name: string;
  email: string;
  password: string;
  terms_accepted: boolean;
}

/** `/register`: creates the account, its organization and starter workspace, and signs in. */
export function RegisterPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const termsId = useId();
  const register = useMutation({
    mutationFn: (form: RegisterForm) => api('POST', '/api/auth/register', form),
    onSuccess: () => {
      queryClient.clear();
      navigate(nextPath(location.search), { replace: true });
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    register.mutate({
      name: String(data.get('name')),
      email: String(data.get('email')),
      password: String(data.get('password')),
      terms_accepted: data.get('terms') === 'on',
    });
  };
  return (
    <AuthLayout title="Create your Folio account">
      <form onSubmit={submit} className="stack">
        <Field label="Name" name="name" autoComplete="name" required autoFocus />
        <Field label="Email" name="email" type="email" autoComplete="email" required />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={8}
          required
          hint="At least 8 characters."
        />
        <div className="checkbox">
          <input id={termsId} name="terms" type="checkbox" required />
          <label htmlFor={termsId}>I accept the terms</label>
        </div>
        <FormError error={register.error} />
        <button type="submit" className="button primary" disabled={register.isPending}>
          Create account
        </button>
      </form>
      <p className="auth-links">
        <span>
          Already have an account? <Link to={`/login${location.search}`}>Sign in</Link>
        </span>
      </p>
    </AuthLayout>
  );
}
