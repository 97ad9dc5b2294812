import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { api, ApiError } from '../api/client';
import type { CustomDomain } from '../../../src/contract/custom-domains';
import type { Workspace } from '../api/types';
import { ConfirmButton } from '../ui/confirm-button';
import { CopyField } from '../ui/copy-field';
import { Field } from '../ui/field';
import { FormError } from '../ui/form-error';
import { Loading } from '../ui/loading';
import { workspaceKeys } from '../api/query-keys';

/** While a domain waits for its TXT record, its status is asked again this often. */
const PENDING_REFRESH_MS = 30_000;

/**
 * The published site on a domain of the workspace's own (…/custom-domain): set it, create
 * the TXT record shown, watch the status turn to verified, or remove it.
 */
export function DomainSection({ workspace }: { workspace: Workspace }) {
  const url = `/api/v1/workspaces/${workspace.id}/custom-domain`;
  const key = workspaceKeys.customDomain(workspace.id);
  const queryClient = useQueryClient();
  const domain = useQuery({
    queryKey: key,
    queryFn: async () => {
      try {
        return await api<CustomDomain>('GET', url);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? PENDING_REFRESH_MS : false),
  });
  const set = useMutation({
    mutationFn: (name: string) => api<CustomDomain>('PUT', url, { domain: name }),
    onSuccess: (saved) => queryClient.setQueryData(key, saved),
  });
  const remove = useMutation({
    mutationFn: () => api<void>('DELETE', url),
    onSuccess: () => queryClient.setQueryData(key, null),
  });
  if (domain.isPending) return <Loading label="Loading the domain…" />;
  if (domain.isError) return <FormError error={domain.error} />;

  if (!domain.data) {
    const submit = (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      set.mutate(String(new FormData(event.currentTarget).get('domain')).trim());
    };
    return (
      <form className="account-section" onSubmit={submit} aria-labelledby="domain-heading">
        <h2 id="domain-heading">Serve the site on your own domain</h2>
        <p className="hint">Readers then find the published site at that address instead of under /p/.</p>
        <div className="inline-form">
          <Field label="Domain" name="domain" required placeholder="docs.example.com" />
          <button type="submit" className="button primary" disabled={set.isPending}>
            Set domain
          </button>
        </div>
        <FormError error={set.error} />
      </form>
    );
  }

  const { verification } = domain.data;
  const verified = domain.data.status === 'verified';
  return (
    <section className="account-section" aria-labelledby="domain-heading">
      <h2 id="domain-heading">{domain.data.domain}</h2>
      <p role="status">
        <span className={`badge${verified ? ' success' : ''}`}>
          {verified ? 'Verified' : 'Waiting for DNS'}
        </span>
        {verified && domain.data.verified_at && (
          <span className="hint"> since {new Date(domain.data.verified_at).toLocaleString()}</span>
        )}
      </p>
      {!verified && (
        <>
          <p>Create this TXT record at your DNS provider; the status updates once it is found.</p>
          <CopyField label="Record name" value={verification.name} />
          <CopyField label="Record value" value={verification.value} />
        </>
      )}
      <FormError error={remove.error ?? domain.error} />
      <div className="item-actions">
        {!verified && (
          <button
            type="button"
            className="button"
            disabled={domain.isFetching}
            onClick={() => void domain.refetch()}
          >
            Check now
          </button>
        )}
        <ConfirmButton
          label="Remove domain…"
          confirmLabel={`Remove ${domain.data.domain}`}
          busy={remove.isPending}
          onConfirm={() => remove.mutate()}
        />
      </div>
    </section>
  );
}
