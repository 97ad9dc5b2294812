import { monotonicFactory } from 'ulid';
import type { Clock } from '../../lib/clock.js';
import type { Logger } from '../../logger.js';
import type { Metrics } from '../../metrics/metrics.js';
import type { Store } from '../../store/database.js';
import * as webhooks from '../../store/repositories/webhooks.js';
import type { WebhookDeliveryRow, WebhookRow } from '../../store/schema.js';
import { DELIVERY_LOG_SIZE } from './webhooks.js';
import { sendDelivery } from './send.js';
import { coalescedRuns } from '../../lib/coalesced-runs.js';
import { checkTarget, type TargetRules } from './target.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface DeliveryOptions {
  /** How long a receiver has to answer (10 s). */
  timeoutMs?: number;
  /** First wait before a retry, doubling each time up to an hour (30 s). */
  retryBaseMs?: number;
  /** How long a delivery is retried before it is marked failed (a day). */
  retryForMs?: number;
  /** A webhook failing this long without a success is turned off (three days). */
  deactivateAfterMs?: number;
  /** How often the queue is looked at besides wake-ups (5 s). */
  pollMs?: number;
}

export interface DeliveryDeps extends DeliveryOptions {
  store: Store;
  clock: Clock;
  logger: Logger;
  rules: TargetRules;
  metrics?: Pick<Metrics, 'webhookDeliveries'>;
  secretOf: (webhook: WebhookRow) => Promise<string>;
}

/** A claim older than this is taken to belong to an instance that stopped mid-delivery. */
const CLAIM_STALE_MS = 5 * 60_000;

const nextId = monotonicFactory();

/**
 * The delivery queue and its worker. Deliveries are rows, so they survive a restart;
 * each is claimed by one conditional UPDATE before it is sent, so instances sharing the
 * database never send one twice. A failure is retried with exponential backoff for a
 * day, then marked failed; a webhook whose deliveries have failed for three days is
 * turned off with the reason, for its admins to see.
 */
export function createWebhookDelivery(deps: DeliveryDeps) {
  const db = deps.store.db;
  const timeoutMs = deps.timeoutMs ?? 10_000;
  const retryBaseMs = deps.retryBaseMs ?? 30_000;
  const retryForMs = deps.retryForMs ?? DAY;
  const deactivateAfterMs = deps.deactivateAfterMs ?? 3 * DAY;
  const now = () => deps.clock.now();
  let timer: NodeJS.Timeout | null = null;
  let stopped = true;

  async function claim(row: WebhookDeliveryRow): Promise<boolean> {
    const at = now();
    const staleBefore = new Date(at.getTime() - CLAIM_STALE_MS).toISOString();
    return webhooks.claimDelivery(db, row.id, at.toISOString(), staleBefore);
  }

  async function deliverOne(row: WebhookDeliveryRow): Promise<void> {
    const webhook = await webhooks.findWebhookById(db, row.webhook_id);
    if (!webhook) return;
    const attempt = row.attempt + 1;
    let outcome: { ok: boolean; status: number | null; durationMs: number; error: string | null };
    if (webhook.active === 0) {
      outcome = { ok: false, status: null, durationMs: 0, error: 'The webhook is turned off' };
    } else {
      try {
        // Checked again now: the name may resolve somewhere else than when it was saved.
        const target = await checkTarget(webhook.url, deps.rules);
        outcome = await sendDelivery(
          target,
          { id: row.id, event: row.event, body: row.body, secret: await deps.secretOf(webhook) },
          timeoutMs,
        );
      } catch (error) {
        outcome = { ok: false, status: null, durationMs: 0, error: (error as Error).message };
      }
    }
    const at = now();
    if (outcome.ok) {
      deps.metrics?.webhookDeliveries.inc({ result: 'delivered' });
      await webhooks.updateDelivery(db, row.id, {
        status: 'delivered',
        attempt,
        claimed_at: null,
        response_status: outcome.status,
        duration_ms: outcome.durationMs,
        error: null,
        delivered_at: at.toISOString(),
      });
      if (webhook.failing_since) await webhooks.updateWebhook(db, webhook.id, { failing_since: null });
    } else {
      const givingUp = webhook.active === 0 || at.getTime() - Date.parse(row.created_at) >= retryForMs;
      deps.metrics?.webhookDeliveries.inc({ result: givingUp ? 'failed' : 'retrying' });
      const wait = Math.min(HOUR, retryBaseMs * 2 ** (attempt - 1));
      await webhooks.updateDelivery(db, row.id, {
        status: givingUp ? 'failed' : 'pending',
        attempt,
        claimed_at: null,
        response_status: outcome.status,
        duration_ms: outcome.durationMs,
        error: outcome.error,
        next_attempt_at: new Date(at.getTime() + wait).toISOString(),
      });
      if (webhook.active === 1) await noteFailure(webhook, outcome.error ?? 'failed', at);
    }
    // The log keeps the newest deliveries; pending ones are never dropped.
    await webhooks.trimDeliveryLog(db, webhook.id, DELIVERY_LOG_SIZE);
  }

  async function noteFailure(webhook: WebhookRow, error: string, at: Date): Promise<void> {
    const since = webhook.failing_since ?? at.toISOString();
    const turnOff = at.getTime() - Date.parse(since) >= deactivateAfterMs;
    await webhooks.updateWebhook(db, webhook.id, {
      failing_since: since,
      ...(turnOff
        ? {
            active: 0,
            deactivated_reason: `Turned off after failing since ${since}: ${error}`.slice(0, 500),
          }
        : {}),
    });
    if (turnOff)
      deps.logger.warn({ webhook_id: webhook.id, since }, 'webhook turned off after failing for days');
  }

  async function drainOnce(): Promise<void> {
    for (;;) {
      const due = await webhooks.listDueDeliveries(db, now().toISOString(), 20);
      let sent = 0;
      for (const row of due) {
        if (stopped) return;
        if (!(await claim(row))) continue;
        sent++;
        await deliverOne(row);
      }
      if (due.length < 20 || sent === 0) return;
    }
  }

  // A delivery queued during a pass may not be in what it read, so one more pass follows.
  const runs = coalescedRuns(() =>
    drainOnce().catch((error: unknown) => deps.logger.warn({ err: error }, 'webhook deliveries failed')),
  );
  /** Drains what is due; a call during a run schedules one more run after it. */
  const drain = runs.run;

  return {
    drain,

    /** Queues one delivery (sent at once when the worker runs) and answers its row. */
    async enqueue(
      webhook: WebhookRow,
      event: string,
      data: Record<string, unknown>,
    ): Promise<WebhookDeliveryRow> {
      const id = nextId();
      const at = now().toISOString();
      const body = JSON.stringify({ id, event, created_at: at, workspace_id: webhook.workspace_id, data });
      const row: WebhookDeliveryRow = {
        id,
        webhook_id: webhook.id,
        event,
        body,
        status: 'pending',
        attempt: 0,
        next_attempt_at: at,
        claimed_at: null,
        response_status: null,
        duration_ms: null,
        error: null,
        created_at: at,
        delivered_at: null,
      };
      await webhooks.insertDelivery(db, row);
      if (!stopped) void drain();
      return row;
    },

    /** The active webhooks of a workspace that want `event`. */
    async subscribers(workspaceId: string, event: string): Promise<WebhookRow[]> {
      const rows = await webhooks.listActiveWebhooksOfWorkspace(db, workspaceId);
      return rows.filter((r) => (JSON.parse(r.events) as string[]).includes(event));
    },

    start(): void {
      stopped = false;
      runs.resume();
      timer = setInterval(() => void drain(), deps.pollMs ?? 5_000);
      timer.unref();
      void drain();
    },

    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      await runs.halt();
    },
  };
}

export type WebhookDelivery = ReturnType<typeof createWebhookDelivery>;
