import { useMutation } from '@tanstack/react-query';
import { api } from '../api/client';
import { FormError } from '../ui/form-error';
import { useImpersonation } from './platform-api';
import '../styles/platform.css';

/**
 * Shown on every signed-in screen while the platform owner is impersonating a user: whose
 * account this is, who is acting, and a button that ends the impersonated session (the
 * owner then signs in as themselves again).
 */
export function ImpersonationBanner() {
  const impersonation = useImpersonation();
  const end = useMutation({
    mutationFn: () => api<void>('DELETE', '/api/v1/users/me/impersonation'),
    onSuccess: () => window.location.assign('/login'),
  });
  const by = impersonation.data?.impersonated_by;
  if (!by || !impersonation.data) return null;
  return (
    <div className="impersonation-banner" role="region" aria-label="Impersonation">
      <p>
        <strong>Impersonating {impersonation.data.user.name}</strong> ({impersonation.data.user.email}) as{' '}
        {by.name}. Everything you do is done as them and recorded in the audit log.
      </p>
      <button type="button" className="button small" disabled={end.isPending} onClick={() => end.mutate()}>
        End impersonation
      </button>
      <FormError error={end.error} />
    </div>
  );
}
