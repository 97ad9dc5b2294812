import { FormError } from '../ui/form-error';
import { Loading } from '../ui/loading';
import { usePagedList } from './paged-list';
import type { AuditEntry } from '../../../src/contract/platform-admin';
import { when } from './platform-api';
import { platformKeys } from '../api/query-keys';

/** `org_plan_changed` → "Org plan changed". */
const actionName = (action: string) => {
  const text = action.replace(/_/g, ' ');
  return text[0]!.toUpperCase() + text.slice(1);
};

/** What an entry's details say, in one line (a reason, a plan, an email). */
const detailLine = (details: Record<string, unknown>) =>
  Object.entries(details)
    .filter(([key, value]) => key !== 'session_id' && value !== null && typeof value !== 'object')
    .map(([key, value]) => `${key.replace(/_/g, ' ')}: ${String(value)}`)
    .join(' · ');

/** The audit log of the platform owner's actions, newest first. */
export function AuditSection() {
  const log = usePagedList<AuditEntry>(platformKeys.audit(), '/api/v1/admin/audit-log');
  return (
    <section className="account-section" aria-label="Audit log">
      {log.isPending && <Loading label="Loading the audit log…" />}
      <FormError error={log.error} />
      {!log.isPending && log.items.length === 0 && (
        <p>Nothing has been done through this administration yet.</p>
      )}
      <ol className="item-list" aria-label="Audit entries">
        {log.items.map((entry) => (
          <li key={entry.id} className="item">
            <div className="item-text">
              <strong>{actionName(entry.action)}</strong>
              <span className="hint">
                {when(entry.created_at)} · by {entry.actor.name ?? entry.actor.id} · {entry.target.type}{' '}
                {entry.target.id}
              </span>
              {detailLine(entry.details) && <span>{detailLine(entry.details)}</span>}
            </div>
          </li>
        ))}
      </ol>
      {log.hasMore && (
        <button type="button" className="button" disabled={log.loadingMore} onClick={log.more}>
          Show older entries
        </button>
      )}
    </section>
  );
}
