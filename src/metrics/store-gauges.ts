import type { Store } from '../store/database.js';
import { countUnsentMail } from '../store/repositories/mail-outbox.js';
import { countOpenConflicts } from '../store/repositories/sync-state.js';
import type { Metrics } from './metrics.js';

/**
 * Gauges read from the database when scraped: sync conflicts waiting for someone, and
 * mail waiting to be sent. Shared by every instance on the database, so each reports the
 * same value; aggregate them with `max`, not `sum`.
 */
export function registerStoreGauges(metrics: Metrics, store: Store): void {
  metrics.gauge('folio_git_open_conflicts', 'Sync conflicts waiting to be resolved', () =>
    countOpenConflicts(store.db),
  );
  metrics.gauge('folio_mail_outbox_backlog', 'Mails waiting to be sent', () => countUnsentMail(store.db));
}
