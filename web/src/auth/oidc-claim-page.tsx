import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import type { IdentityLinked } from '../../../src/contract/auth';
import { api, ApiError } from '../api/client';
import { useMe } from '../api/queries';
import { FormError } from '../ui/form-error';
import { AuthLayout } from './auth-layout';

const needsTerms = (error: unknown) =>
  error instanceof ApiError &&
  error.code === 'VALIDATION_ERROR' &&
  JSON.stringify(error.body).includes('terms_accepted');

const needsLink = (error: unknown) =>
  error instanceof ApiError && error.status === 409 && JSON.stringify(error.body).includes('link_required');

/**
 * `/login/oidc?code=…`: where a provider's sign-in lands. The one-time code is claimed
 * for a session at once; a new account first asks for the terms; an email that an
 * account already has asks its owner to sign in with their password and confirm the link.
 */
export function OidcClaimPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const termsId = useId();
  const params = new URLSearchParams(location.search);
  const code = params.get('code') ?? '';
  const linking = params.get('link') === '1';
  const me = useMe();

  const claim = useMutation({
    mutationFn: (terms: boolean) =>
      api('POST', '/api/auth/oidc/claim', { code, ...(terms ? { terms_accepted: true } : {}) }),
    onSuccess: () => {
      queryClient.clear();
      navigate('/', { replace: true });
    },
  });
  const link = useMutation({
    mutationFn: () => api<IdentityLinked>('POST', '/api/auth/oidc/link', { code }),
    onSuccess: () => navigate('/settings/account', { replace: true }),
  });

  const started = useRef(false);
  useEffect(() => {
    if (started.current || !code || linking) return;
    started.current = true;
    claim.mutate(false);
  }, [code, linking, claim]);

  if (!code) {
    return (
      <AuthLayout title="Sign-in link incomplete">
        <p>This sign-in link has no code. Please sign in again.</p>
        <Link to="/login">Back to sign in</Link>
      </AuthLayout>
    );
  }

  if (linking) {
    return (
      <AuthLayout title="Link your account">
        {me.data ? (
          <div className="stack">
            <p>
              Signed in as <strong>{me.data.email}</strong>. Link this identity provider so you can sign in
              with it from now on.
            </p>
            <FormError error={link.error} />
            <button
              type="button"
              className="button primary"
              disabled={link.isPending}
              onClick={() => link.mutate()}
            >
              Link account
            </button>
          </div>
        ) : (
          <p>
            <Link to={`/login?next=${encodeURIComponent(location.pathname + location.search)}`}>
              Sign in with your password
            </Link>{' '}
            to confirm the link.
          </p>
        )}
      </AuthLayout>
    );
  }

  if (needsTerms(claim.error)) {
    const submit = (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      claim.mutate(true);
    };
    return (
      <AuthLayout title="Create your Folio account">
        <form onSubmit={submit} className="stack">
          <p>This is your first sign-in: Folio creates your account and a workspace for your docs.</p>
          <div className="checkbox">
            <input id={termsId} name="terms" type="checkbox" required />
            <label htmlFor={termsId}>I accept the terms</label>
          </div>
          <button type="submit" className="button primary" disabled={claim.isPending}>
            Create account
          </button>
        </form>
      </AuthLayout>
    );
  }

  if (needsLink(claim.error)) {
    const next = `/login/oidc?code=${encodeURIComponent(code)}&link=1`;
    return (
      <AuthLayout title="You already have an account">
        <div className="stack">
          <p>{claim.error?.message}</p>
          <Link className="button primary" to={`/login?next=${encodeURIComponent(next)}`}>
            Sign in to link
          </Link>
        </div>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Signing you in…">
      {claim.isError ? (
        <div className="stack">
          <FormError error={claim.error} />
          <Link to="/login">Back to sign in</Link>
        </div>
      ) : (
        <p role="status">One moment…</p>
      )}
    </AuthLayout>
  );
}
