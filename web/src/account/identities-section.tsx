import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { useIdentities, useProviders } from '../api/queries';
import type { LinkedIdentity } from '../../../src/contract/auth';
import { FormError } from '../ui/form-error';
import { accountKeys } from '../api/query-keys';

/**
 * Account → Linked accounts: the identity providers this account signs in with. The
 * server refuses to unlink the last way to sign in, and says so.
 */
export function IdentitiesSection() {
  const identities = useIdentities();
  const providers = useProviders();
  const nameOf = (id: string) => providers.data?.providers.find((p) => p.id === id)?.name ?? id;
  return (
    <section className="account-section" aria-labelledby="identities-heading">
      <h2 id="identities-heading">Linked accounts</h2>
      {identities.isError && <FormError error={identities.error} />}
      {identities.data && identities.data.length === 0 && (
        <p className="hint">
          No identity provider is linked. Sign out and use “Continue with …” on the sign-in page to link one.
        </p>
      )}
      {identities.data && identities.data.length > 0 && (
        <ul className="item-list" aria-label="Linked accounts">
          {identities.data.map((identity) => (
            <IdentityItem key={identity.id} identity={identity} provider={nameOf(identity.provider)} />
          ))}
        </ul>
      )}
    </section>
  );
}

function IdentityItem({ identity, provider }: { identity: LinkedIdentity; provider: string }) {
  const queryClient = useQueryClient();
  const unlink = useMutation({
    mutationFn: () => api('DELETE', `/api/auth/identities/${identity.id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.identities() }),
  });
  return (
    <li className="item">
      <div className="item-text">
        <strong>{provider}</strong>
        <span className="hint">{identity.email}</span>
      </div>
      <div className="item-actions">
        <button
          type="button"
          className="button danger-outline small"
          aria-label={`Unlink ${provider}`}
          disabled={unlink.isPending}
          onClick={() => unlink.mutate()}
        >
          Unlink
        </button>
      </div>
      <FormError error={unlink.error} />
    </li>
  );
}
