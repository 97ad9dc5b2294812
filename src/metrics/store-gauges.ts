import type { Store } from '../store/database.js';
import type { Metrics } from './metrics.js';

/**
 * Gauges read from the database when scraped: sync conflicts waiting for someone, and
 * mail waiting to be sent. Shared by every instance on the database, so each reports the
 * same value; aggregate them with `max`, not `sum`.
 */
export function registerStoreGauges(metrics: Metrics, store: Store): void {
  const waiting = async (table: 'sync_conflicts' | 'outbox', doneColumn: 'resolved_at' | 'sent_at') => {
    const row = await store.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(doneColumn, 'is', null)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  };
  metrics.gauge('folio_git_open_conflicts', 'Sync conflicts waiting to be resolved', () =>
    waiting('sync_conflicts', 'resolved_at'),
  );
  metrics.gauge('folio_mail_outbox_backlog', 'Mails waiting to be sent', () => waiting('outbox', 'sent_at'));
}
