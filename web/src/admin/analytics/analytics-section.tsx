import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, ApiError } from '../../api/client';
import type {
  AnalyticsOverview,
  AnalyticsPages,
  AnalyticsSearches,
} from '../../../../src/contract/analytics';
import type { Workspace } from '../../api/types';
import { FormError } from '../../ui/form-error';
import { Loading } from '../../ui/loading';
import { BarChart, type BarDatum } from './bar-chart';
import { type DayCount, LineChart } from './line-chart';
import '../../styles/analytics.css';
import { workspaceKeys } from '../../api/query-keys';
import { stripPageExtension } from '../../../../src/domain/page-extensions';

const RANGES = [7, 30, 90] as const;
type Days = (typeof RANGES)[number];

/** Every day from `since` to today (UTC), with the views of those that had any. */
export function everyDay(since: string, days: number, daily: AnalyticsOverview['daily']): DayCount[] {
  const byDay = new Map(daily.map((d) => [d.day, d.views]));
  const start = Date.parse(`${since}T00:00:00Z`);
  return Array.from({ length: days }, (_, i) => {
    const day = new Date(start + i * 86_400_000).toISOString().slice(0, 10);
    return { day, value: byDay.get(day) ?? 0 };
  });
}

const pageLabel = (path: string) => stripPageExtension(path);

/** Cloud's Free plan has no analytics: the reports' 403 becomes an offer, not an error. */
function UpgradeNotice() {
  return (
    <section className="account-section notice" aria-labelledby="upgrade-heading">
      <h2 id="upgrade-heading">Analytics come with the Team plan</h2>
      <p>
        See which pages readers open, what they search for and what they don't find. Analytics are part of the
        Team and Business plans; the Free plan does not record them.
      </p>
    </section>
  );
}

/** No views yet: why, and how readers are counted. */
function EmptyState() {
  return (
    <section className="account-section" aria-labelledby="empty-heading">
      <h2 id="empty-heading">No visits recorded in this period</h2>
      <p>
        Folio counts a reader only after they accept analytics in the published site's footer. Readers whose
        browser sends Do Not Track or Global Privacy Control are never counted, and no IP address is stored.
      </p>
      <p className="hint">
        Make the site public and publish pages in Settings; visits show up here the next day at the latest.
      </p>
    </section>
  );
}

/** A ranked report as a bar chart under its heading, or a line saying it is empty. */
function TopSection(props: {
  heading: string;
  title: string;
  unit: string;
  data: readonly BarDatum[] | undefined;
  empty: string;
}) {
  const headingId = useId();
  return (
    <section className="account-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{props.heading}</h2>
      {props.data && props.data.length > 0 ? (
        <BarChart title={props.title} unit={props.unit} data={props.data} />
      ) : (
        <p className="hint">{props.empty}</p>
      )}
    </section>
  );
}

/**
 * Analytics (…/analytics): views per day, the most read pages, the most frequent site
 * searches and those that found nothing, over 7, 30 or 90 days.
 */
export default function AnalyticsSection({ workspace }: { workspace: Workspace }) {
  const [days, setDays] = useState<Days>(30);
  const base = `/api/v1/workspaces/${workspace.id}/analytics`;
  const report = <T,>(name: string, query: string) =>
    ({
      queryKey: workspaceKeys.analytics(workspace.id, name, days, query),
      queryFn: () => api<T>('GET', `${base}/${name}?days=${days}${query}`),
      retry: false,
    }) as const;
  const overview = useQuery(report<AnalyticsOverview>('overview', ''));
  const pages = useQuery(report<AnalyticsPages>('pages', '&limit=10'));
  const searches = useQuery(report<AnalyticsSearches>('searches', '&limit=10'));
  const unanswered = useQuery(report<AnalyticsSearches>('searches', '&limit=20&no_results=true'));

  if (overview.error instanceof ApiError && overview.error.status === 403) return <UpgradeNotice />;
  return (
    <>
      <fieldset className="range-choice">
        <legend>Period</legend>
        {RANGES.map((n) => (
          <label key={n}>
            <input type="radio" name="days" value={n} checked={days === n} onChange={() => setDays(n)} />
            {n} days
          </label>
        ))}
      </fieldset>
      {overview.isPending && <Loading label="Loading the analytics…" />}
      <FormError error={overview.error ?? pages.error ?? searches.error ?? unanswered.error} />
      {overview.data && overview.data.views + overview.data.searches === 0 && <EmptyState />}
      {overview.data && overview.data.views + overview.data.searches > 0 && (
        <>
          <dl className="totals">
            <div>
              <dt>Views</dt>
              <dd>{overview.data.views}</dd>
            </div>
            <div>
              <dt>Visitors</dt>
              <dd>{overview.data.visitors}</dd>
            </div>
            <div>
              <dt>Searches</dt>
              <dd>{overview.data.searches}</dd>
            </div>
          </dl>
          <section className="account-section" aria-labelledby="views-heading">
            <h2 id="views-heading">Views per day</h2>
            <LineChart
              title={`Views per day, last ${days} days`}
              unit="views"
              data={everyDay(overview.data.since, days, overview.data.daily)}
            />
          </section>
          <TopSection
            heading="Top pages"
            title={`Most viewed pages, last ${days} days`}
            unit="views"
            data={pages.data?.data.map((p) => ({ label: pageLabel(p.path), value: p.views }))}
            empty="No page views in this period."
          />
          <TopSection
            heading="Top searches"
            title={`Most frequent searches, last ${days} days`}
            unit="searches"
            data={searches.data?.data.map((s) => ({ label: s.query, value: s.count }))}
            empty="No searches in this period."
          />
          <section className="account-section" aria-labelledby="unanswered-heading">
            <h2 id="unanswered-heading">Searches that found nothing</h2>
            <p className="hint">What readers look for and the docs do not have yet.</p>
            {unanswered.data && unanswered.data.data.length > 0 ? (
              <ul className="item-list">
                {unanswered.data.data.map((s) => (
                  <li key={s.query} className="item">
                    <div className="item-text">
                      <strong>{s.query}</strong>
                      <span className="hint">
                        {s.count} {s.count === 1 ? 'search' : 'searches'}
                      </span>
                    </div>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="hint">Every search found something.</p>
            )}
          </section>
        </>
      )}
    </>
  );
}
