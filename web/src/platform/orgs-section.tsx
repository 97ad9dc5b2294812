import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api } from '../api/client';
import { Field } from '../ui/field';
import { FormError } from '../ui/form-error';
import { Loading } from '../ui/loading';
import { usePagedList } from './paged-list';
import type { OrgDetails, OrgSummary } from '../../../src/contract/platform-admin';
import { PLANS, when } from './platform-api';
import { platformKeys } from '../api/query-keys';

/** Organizations: search, plan changes and exports, newest first. */
export function OrgsSection() {
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  const orgs = usePagedList<OrgSummary>(platformKeys.orgs(), '/api/v1/admin/orgs', q ? { q } : {});
  return (
    <section className="account-section" aria-label="Organizations">
      <form
        className="platform-search"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setQ(search.trim());
        }}
      >
        <Field label="Find an organization" value={search} onChange={(e) => setSearch(e.target.value)} />
        <button type="submit" className="button">
          Search
        </button>
      </form>
      {orgs.isPending && <Loading label="Loading the organizations…" />}
      <FormError error={orgs.error} />
      <div className="platform-table-wrap" tabIndex={0} role="region" aria-label="Organizations table">
        <table className="platform-table">
          <caption className="visually-hidden">Organizations</caption>
          <thead>
            <tr>
              <th scope="col">Organization</th>
              <th scope="col">Plan</th>
              <th scope="col">People</th>
              <th scope="col">Created</th>
              <th scope="col">Export</th>
            </tr>
          </thead>
          <tbody>
            {orgs.items.map((org) => (
              <OrgRow key={org.id} org={org} />
            ))}
          </tbody>
        </table>
      </div>
      {orgs.hasMore && (
        <button type="button" className="button" disabled={orgs.loadingMore} onClick={orgs.more}>
          Show more organizations
        </button>
      )}
    </section>
  );
}

function OrgRow({ org }: { org: OrgSummary }) {
  const queryClient = useQueryClient();
  const planId = useId();
  const [plan, setPlan] = useState(org.plan);
  const change = useMutation({
    mutationFn: () => api<OrgDetails>('PUT', `/api/v1/admin/orgs/${org.id}/plan`, { plan }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: platformKeys.orgs() }),
  });
  return (
    <tr>
      <td>
        <strong>{org.name}</strong>
        <br />
        <span className="hint">@{org.handle}</span>
      </td>
      <td>
        <label htmlFor={planId} className="visually-hidden">
          Plan of {org.handle}
        </label>
        <select id={planId} value={plan} onChange={(e) => setPlan(e.target.value)}>
          {PLANS.map((p) => (
            <option key={p} value={p}>
              {p[0]!.toUpperCase() + p.slice(1)}
            </option>
          ))}
        </select>{' '}
        <button
          type="button"
          className="button small"
          aria-label={`Change the plan of ${org.handle}`}
          disabled={plan === org.plan || change.isPending}
          onClick={() => change.mutate()}
        >
          Change plan
        </button>
        {org.subscription_override && (
          <span className="hint"> Override: {org.subscription_override.plan}</span>
        )}
        <FormError error={change.error} />
      </td>
      <td>
        {org.members} {org.members === 1 ? 'member' : 'members'}, {org.workspaces}{' '}
        {org.workspaces === 1 ? 'workspace' : 'workspaces'}
      </td>
      <td>{when(org.created_at)}</td>
      <td>
        <a
          className="button small"
          href={`/api/v1/admin/orgs/${org.id}/export`}
          download
          aria-label={`Export ${org.handle}`}
        >
          ZIP
        </a>
      </td>
    </tr>
  );
}
