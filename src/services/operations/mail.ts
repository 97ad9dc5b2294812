import type * as Nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import { ulid } from 'ulid';
import type { Logger } from '../../logger.js';
import type { Store } from '../../store/database.js';
import * as outboxTable from '../../store/repositories/mail-outbox.js';
import type { Queryable } from '../../store/repositories/queryable.js';
import type { Clock } from '../../lib/clock.js';
import type { Metrics } from '../../metrics/metrics.js';
import { coalescedRuns } from '../../lib/coalesced-runs.js';
import { importPackage } from '../../lib/import-package.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** After this many failed attempts a mail stays in the outbox, visible in the backlog, untried. */
export const MAX_MAIL_ATTEMPTS = 10;

/**
 * A mail being sent is claimed by moving its next attempt this far ahead, so another
 * worker (another instance or process on the database) passes it by; if the sender dies
 * mid-send, the mail is tried again once the claim has run out.
 */
const CLAIM_MS = 5 * 60_000;

/**
 * A persistent outbox: mail is a row written in the same transaction as the
 * change that caused it, and a worker delivers it with retries. Nothing is
 * lost when the SMTP server is down or Folio restarts.
 */
export function createOutbox(store: Store, clock: Clock, enabled: boolean) {
  let kick: () => void = () => {};
  return {
    /** Whether mail is configured (SMTP_URL); without it nothing is queued or sent. */
    enabled,
    onEnqueue(listener: () => void) {
      kick = listener;
    },
    /**
     * Wakes the worker. Call it after committing a transaction that enqueued
     * mail: the wake-up inside `enqueue` runs before that commit, and on
     * PostgreSQL the worker's own connection cannot see the row yet.
     */
    wake() {
      if (enabled) kick();
    },
    async enqueue(mail: Mail, trx: Queryable = store.db): Promise<void> {
      if (!enabled) return;
      const now = clock.now().toISOString();
      await outboxTable.insertMail(trx, {
        id: ulid(),
        to_address: mail.to,
        subject: mail.subject,
        text_body: mail.text,
        attempts: 0,
        next_attempt_at: now,
        sent_at: null,
        last_error: null,
        created_at: now,
      });
      kick();
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;

/**
 * Delivers the outbox through SMTP, backing off exponentially per mail (30 s doubling, at
 * most 1 h). Each mail is claimed before it is sent, so workers sharing the database (other
 * instances or processes) never send one twice.
 */
export async function createMailWorker(deps: {
  store: Store;
  clock: Clock;
  smtpUrl: string;
  from: string;
  logger: Logger;
  transport?: Transporter;
  /** Counts failed attempts. */
  metrics?: Pick<Metrics, 'mailFailures'>;
}) {
  // nodemailer is loaded only when mail is configured.
  const transport =
    deps.transport ??
    (await importPackage<{ default: typeof Nodemailer }>('nodemailer')).default.createTransport(deps.smtpUrl);
  const db = deps.store.db;
  let timer: NodeJS.Timeout | null = null;

  /** Takes the mail for this worker; false when another worker took it first. */
  async function claim(id: string, seenNextAttempt: string): Promise<boolean> {
    const until = new Date(deps.clock.now().getTime() + CLAIM_MS).toISOString();
    return outboxTable.claimMail(db, id, seenNextAttempt, until);
  }

  async function drainOnce(): Promise<void> {
    const now = deps.clock.now();
    const due = await outboxTable.listDueMail(db, {
      now: now.toISOString(),
      maxAttempts: MAX_MAIL_ATTEMPTS,
      limit: 20,
    });
    for (const mail of due) {
      if (!(await claim(mail.id, mail.next_attempt_at))) continue;
      try {
        await transport.sendMail({
          from: deps.from,
          to: mail.to_address,
          subject: mail.subject,
          text: mail.text_body,
        });
        await outboxTable.markMailSent(db, mail.id, deps.clock.now().toISOString());
      } catch (error) {
        deps.metrics?.mailFailures.inc();
        const attempts = mail.attempts + 1;
        const backoff = Math.min(3_600_000, 30_000 * 2 ** (attempts - 1));
        await outboxTable.recordMailFailure(db, mail.id, {
          attempts,
          next_attempt_at: new Date(now.getTime() + backoff).toISOString(),
          last_error: (error as Error).message.slice(0, 500),
        });
        deps.logger.warn(
          { mail_id: mail.id, attempts, err: (error as Error).message },
          'mail delivery failed',
        );
      }
    }
  }

  // A wake-up during a run may concern mail that run's query did not see, so one more run follows.
  const runs = coalescedRuns(drainOnce);
  /** Drains what is due; a call during a run shares it and schedules one more run after it. */
  const drain = runs.run;

  return {
    drain,
    start(intervalMs = 5000) {
      timer = setInterval(() => void drain().catch(() => undefined), intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await runs.halt();
      transport.close();
    },
  };
}
