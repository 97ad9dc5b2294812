import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { PlatformGrowth, PlatformHealth } from '../../../src/contract/platform-admin';
import { api } from '../api/client';
import { FormError } from '../ui/form-error';
import { Loading } from '../ui/loading';
import { platformKeys } from '../api/query-keys';

/** The instance's readiness checks and totals. */
export function HealthSection() {
  const health = useQuery({
    queryKey: platformKeys.health(),
    queryFn: () => api<PlatformHealth>('GET', '/api/v1/admin/health'),
  });
  if (health.isPending) return <Loading label="Checking the instance…" />;
  if (health.isError) return <FormError error={health.error} />;
  const { checks, totals, process } = health.data;
  return (
    <section className="account-section" aria-label="System health">
      <h2>Checks</h2>
      <ul className="item-list">
        {Object.entries(checks).map(([name, check]) => (
          <li key={name} className="item">
            <div className="item-text">
              <strong>
                {name} <span className="badge">{check.status}</span>
              </strong>
              {check.error && <span className="hint">{check.error}</span>}
            </div>
          </li>
        ))}
      </ul>
      <h2>Totals</h2>
      <ul className="platform-figures">
        <li>
          <strong>{totals.users}</strong> users
        </li>
        <li>
          <strong>{totals.organizations}</strong> organizations
        </li>
        <li>
          <strong>{totals.workspaces}</strong> workspaces
        </li>
        <li>
          <strong>{totals.pages}</strong> pages
        </li>
        <li>
          <strong>{Math.round(process.rss_bytes / 1024 / 1024)} MB</strong> memory
        </li>
        <li>
          <strong>{Math.round(process.uptime_seconds / 60)} min</strong> up
        </li>
      </ul>
    </section>
  );
}

/** Sign-ups and active organizations per day, as bars and as a table. */
export function GrowthSection() {
  const [days, setDays] = useState(30);
  const daysId = useId();
  const growth = useQuery({
    queryKey: platformKeys.growth(days),
    queryFn: () => api<PlatformGrowth>('GET', `/api/v1/admin/analytics/growth?days=${days}`),
  });
  const rows = growth.data?.days ?? [];
  const max = Math.max(1, ...rows.map((r) => Math.max(r.signups, r.active_orgs)));
  return (
    <section className="account-section" aria-label="Growth">
      <div className="field">
        <label htmlFor={daysId}>Period</label>
        <select id={daysId} value={days} onChange={(e) => setDays(Number(e.target.value))}>
          <option value={7}>Last 7 days</option>
          <option value={30}>Last 30 days</option>
          <option value={90}>Last 90 days</option>
        </select>
      </div>
      {growth.isPending && <Loading label="Loading the figures…" />}
      <FormError error={growth.error} />
      {rows.length > 0 && (
        <>
          <svg
            className="platform-bars"
            viewBox={`0 0 ${rows.length * 10} 100`}
            preserveAspectRatio="none"
            aria-hidden="true"
          >
            {rows.map((r, i) => (
              <rect
                key={r.day}
                x={i * 10 + 1}
                width={8}
                y={100 - (r.signups / max) * 100}
                height={(r.signups / max) * 100}
              />
            ))}
          </svg>
          <div className="platform-table-wrap" tabIndex={0} role="region" aria-label="Growth table">
            <table className="platform-table">
              <caption>Sign-ups and active organizations per day</caption>
              <thead>
                <tr>
                  <th scope="col">Day</th>
                  <th scope="col">Sign-ups</th>
                  <th scope="col">Active organizations</th>
                </tr>
              </thead>
              <tbody>
                {[...rows].reverse().map((r) => (
                  <tr key={r.day}>
                    <td>{r.day}</td>
                    <td>{r.signups}</td>
                    <td>{r.active_orgs}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
