import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../api/client';
import type { Workspace } from '../api/types';
import type { QualityReport } from '../../../src/contract/publishing';
import { FormError } from '../ui/form-error';
import { Loading } from '../ui/loading';
import { adminKeys } from '../api/query-keys';

/** What each kind of finding is called on screen. */
const ISSUE_NAMES: Readonly<Record<string, string>> = {
  dead_link: 'Links to missing pages',
  ambiguous_link: 'Ambiguous links',
  missing_anchor: 'Links to missing headings',
  missing_title: 'Pages without a title',
  missing_description: 'Pages without a description',
  empty_page: 'Empty pages',
  short_page: 'Very short pages',
  missing_alt: 'Images without alt text',
  orphan_page: 'Pages nothing links to',
  shadowed_page: '.mdx pages a .md of the same name hides',
};

/**
 * The workspace's documentation quality (GET …/quality): the score, how many findings of
 * each kind, and per page its findings, each a link into the editor at the line concerned.
 */
export function QualitySection({ workspace }: { workspace: Workspace }) {
  const report = useQuery({
    queryKey: adminKeys.quality(workspace.id),
    queryFn: () => api<QualityReport>('GET', `/api/v1/workspaces/${workspace.id}/quality`),
  });
  if (report.isPending) return <Loading label="Checking every page…" />;
  if (report.isError) return <FormError error={report.error} />;
  const { score, page_count, average_readability, issue_counts, pages } = report.data;
  const counts = Object.entries(issue_counts).filter(([, count]) => count > 0);
  const largest = Math.max(1, ...counts.map(([, count]) => count));
  const withIssues = pages.filter((page) => page.issues.length > 0).sort((a, b) => a.score - b.score);
  return (
    <>
      <section className="account-section" aria-labelledby="score-heading">
        <h2 id="score-heading">Score</h2>
        <p className="quality-score">
          <strong>{Math.round(score)}</strong>
          <span className="hint">
            out of 100 · {page_count} {page_count === 1 ? 'page' : 'pages'} · reading ease{' '}
            {Math.round(average_readability)}
          </span>
        </p>
        <meter className="quality-meter" min={0} max={100} low={50} high={80} optimum={100} value={score}>
          {Math.round(score)} out of 100
        </meter>
      </section>
      <section className="account-section" aria-labelledby="counts-heading">
        <h2 id="counts-heading">Findings by kind</h2>
        {counts.length === 0 ? (
          <p>Nothing to fix: every page passes.</p>
        ) : (
          <dl className="issue-counts">
            {counts.map(([type, count]) => (
              <div key={type} className="issue-count">
                <dt>{ISSUE_NAMES[type] ?? type.replaceAll('_', ' ')}</dt>
                <dd>
                  <span
                    className="issue-bar"
                    style={{ width: `${(count / largest) * 100}%` }}
                    aria-hidden="true"
                  />
                  {count}
                </dd>
              </div>
            ))}
          </dl>
        )}
      </section>
      {withIssues.length > 0 && (
        <section className="account-section" aria-labelledby="pages-heading">
          <h2 id="pages-heading">Pages to improve</h2>
          <ul className="item-list">
            {withIssues.map((page) => (
              <li key={page.path} className="item quality-page">
                <div className="item-text">
                  <strong>{page.title}</strong>
                  <span className="hint">
                    {page.path} · score {Math.round(page.score)}
                  </span>
                  <ul className="quality-issues">
                    {page.issues.map((issue, i) => (
                      <li key={i}>
                        <Link
                          to={`/w/${workspace.slug}/${page.path}${issue.line ? `?line=${issue.line}` : ''}`}
                        >
                          {issue.message}
                          {issue.line ? ` (line ${issue.line})` : ''}
                        </Link>
                      </li>
                    ))}
                  </ul>
                </div>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
