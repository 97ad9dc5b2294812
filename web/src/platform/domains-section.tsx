import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { ConfirmButton } from '../ui/confirm-button';
import { FormError } from '../ui/form-error';
import { Loading } from '../ui/loading';
import { usePagedList } from './paged-list';
import type { AdminDomain } from '../../../src/contract/custom-domains';
import { when } from './platform-api';
import { platformKeys } from '../api/query-keys';

/** Every workspace's custom domain: its state, a fresh TXT check, removal. */
export function DomainsSection() {
  const domains = usePagedList<AdminDomain>(platformKeys.domains(), '/api/v1/admin/domains');
  return (
    <section className="account-section" aria-label="Custom domains">
      {domains.isPending && <Loading label="Loading the domains…" />}
      <FormError error={domains.error} />
      {!domains.isPending && domains.items.length === 0 && <p>No workspace has a custom domain.</p>}
      <ul className="item-list" aria-label="Custom domains">
        {domains.items.map((d) => (
          <DomainRow key={d.domain} domain={d} />
        ))}
      </ul>
      {domains.hasMore && (
        <button type="button" className="button" disabled={domains.loadingMore} onClick={domains.more}>
          Show more domains
        </button>
      )}
    </section>
  );
}

function DomainRow({ domain }: { domain: AdminDomain }) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: platformKeys.domains() });
  const url = `/api/v1/admin/domains/${encodeURIComponent(domain.domain)}`;
  const verify = useMutation({
    mutationFn: () => api<AdminDomain>('POST', `${url}/verify`),
    onSuccess: refresh,
  });
  const remove = useMutation({ mutationFn: () => api<void>('DELETE', url), onSuccess: refresh });
  return (
    <li className="item">
      <div className="item-text">
        <strong>
          {domain.domain}{' '}
          <span className="badge">{domain.status === 'verified' ? 'Verified' : 'Pending'}</span>
        </strong>
        <span className="hint">
          {domain.workspace} of @{domain.org} · checked {when(domain.checked_at)}
        </span>
      </div>
      <div className="item-actions">
        <button
          type="button"
          className="button small"
          disabled={verify.isPending}
          aria-label={`Check ${domain.domain} again`}
          onClick={() => verify.mutate()}
        >
          Check again
        </button>
        <ConfirmButton
          small
          label="Remove…"
          ariaLabel={`Remove ${domain.domain}…`}
          confirmLabel={`Remove ${domain.domain}`}
          busy={remove.isPending}
          onConfirm={() => remove.mutate()}
        />
      </div>
      <FormError error={verify.error ?? remove.error} />
    </li>
  );
}
