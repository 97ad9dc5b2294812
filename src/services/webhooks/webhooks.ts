import { ulid } from 'ulid';
import { z } from 'zod';
import type { Actor } from '../../domain/actor.js';
import { CAN } from '../../domain/policy.js';
import { notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { randomToken } from '../../lib/secrets.js';
import type { Store } from '../../store/database.js';
import * as webhooks from '../../store/repositories/webhooks.js';
import type { WebhookDeliveryRow, WebhookRow } from '../../store/schema.js';
import type { AccessService } from '../access.js';
import { actorIdOf, record } from '../activity.js';
import { WEBHOOK_EVENTS, type WebhookEvent } from './events.js';
import { checkTarget, type TargetRules } from './target.js';

const eventsInput = z
  .array(z.enum(WEBHOOK_EVENTS, { error: `events must be among: ${WEBHOOK_EVENTS.join(', ')}` }))
  .min(1, 'Choose at least one event')
  .max(WEBHOOK_EVENTS.length);

export const createWebhookInput = z.object({
  url: z.string().trim().min(1, 'url is required').max(2048),
  events: eventsInput,
  active: z.boolean().optional(),
});

export const updateWebhookInput = createWebhookInput.partial();

export const webhookParams = z.object({ id: z.string(), wid: z.string() });
export const deliveryParams = webhookParams.extend({ delivery_id: z.string() });

/** The API's outbound webhook, plus why deliveries stopped when they did. */
export interface WebhookRecord {
  id: string;
  url: string;
  events: WebhookEvent[];
  active: boolean;
  created_at: string;
  deactivated_reason: string | null;
  /** Only in the answer to create. */
  secret?: string;
}

export interface DeliveryRecord {
  id: string;
  event: string;
  status: WebhookDeliveryRow['status'];
  attempt: number;
  response_status: number | null;
  duration_ms: number | null;
  error: string | null;
  created_at: string;
  delivered_at: string | null;
  next_attempt_at: string | null;
  request_body: string;
}

const present = (row: WebhookRow): WebhookRecord => ({
  id: row.id,
  url: row.url,
  events: JSON.parse(row.events) as WebhookEvent[],
  active: row.active === 1,
  created_at: row.created_at,
  deactivated_reason: row.deactivated_reason,
});

export const presentDelivery = (row: WebhookDeliveryRow): DeliveryRecord => ({
  id: row.id,
  event: row.event,
  status: row.status,
  attempt: row.attempt,
  response_status: row.response_status,
  duration_ms: row.duration_ms,
  error: row.error,
  created_at: row.created_at,
  delivered_at: row.delivered_at,
  next_attempt_at: row.status === 'pending' ? row.next_attempt_at : null,
  request_body: row.body,
});

/** The deliveries a webhook keeps in its log. */
export const DELIVERY_LOG_SIZE = 100;

export interface WebhooksDeps {
  store: Store;
  clock: Clock;
  access: AccessService;
  /** Seals each webhook's signing secret (DATA_DIR/webhook-secrets.key). */
  secrets: SecretBox;
  rules: TargetRules;
  /** Queues one delivery of `event` to `webhook` (the worker's `enqueue`). */
  enqueue: (webhook: WebhookRow, event: string, data: Record<string, unknown>) => Promise<WebhookDeliveryRow>;
}

/**
 * A workspace's outbound webhooks: their definitions, a signing
 * secret shown once, and their delivery log. Deliveries themselves are the worker's.
 */
export function createWebhooks(deps: WebhooksDeps) {
  const db = deps.store.db;
  const { secrets } = deps;

  async function requireRow(workspaceId: string, webhookId: string): Promise<WebhookRow> {
    const row = await webhooks.findWebhookOfWorkspace(db, workspaceId, webhookId);
    if (!row) throw notFound('Webhook');
    return row;
  }

  return {
    async list(actor: Actor, workspaceId: string) {
      const { workspace } = await deps.access.require(actor, workspaceId, CAN.readAdmin);
      const rows = await webhooks.listWebhooksOfWorkspace(db, workspace.id);
      return { data: rows.map(present), next_cursor: null };
    },

    async get(actor: Actor, workspaceId: string, webhookId: string): Promise<WebhookRecord> {
      const { workspace } = await deps.access.require(actor, workspaceId, CAN.readAdmin);
      return present(await requireRow(workspace.id, webhookId));
    },

    /** Stores the webhook with a new secret (answered this once) and sends it a `ping`. */
    async create(actor: Actor, workspaceId: string, input: z.infer<typeof createWebhookInput>) {
      const { workspace } = await deps.access.require(actor, workspaceId, CAN.administer);
      const { url } = await checkTarget(input.url, deps.rules);
      const id = ulid();
      const secret = `whsec_${randomToken(32)}`;
      const now = deps.clock.now().toISOString();
      const row: WebhookRow = {
        id,
        workspace_id: workspace.id,
        url: url.href,
        events: JSON.stringify(input.events),
        secret: await secrets.seal(id, secret),
        active: input.active === false ? 0 : 1,
        failing_since: null,
        deactivated_reason: null,
        created_by: actorIdOf(actor),
        created_at: now,
        updated_at: now,
      };
      await db.transaction().execute(async (trx) => {
        await webhooks.insertWebhook(trx, row);
        await record(trx, {
          workspaceId: workspace.id,
          action: 'webhook_created',
          actorId: actorIdOf(actor),
          at: now,
          details: { webhook_id: id, url: url.href, events: input.events },
        });
      });
      if (row.active) await deps.enqueue(row, 'ping', { webhook_id: id, events: input.events });
      return { ...present(row), secret };
    },

    /** Changes the URL, events or whether it is active; turning it on again clears why it stopped. */
    async update(
      actor: Actor,
      workspaceId: string,
      webhookId: string,
      input: z.infer<typeof updateWebhookInput>,
    ) {
      const { workspace } = await deps.access.require(actor, workspaceId, CAN.administer);
      const row = await requireRow(workspace.id, webhookId);
      const url = input.url === undefined ? row.url : (await checkTarget(input.url, deps.rules)).url.href;
      const active = input.active === undefined ? row.active : input.active ? 1 : 0;
      const reactivated = active === 1 && row.active === 0;
      const changes = {
        url,
        events: input.events ? JSON.stringify(input.events) : row.events,
        active,
        ...(reactivated ? { deactivated_reason: null, failing_since: null } : {}),
        updated_at: deps.clock.now().toISOString(),
      };
      await webhooks.updateWebhook(db, row.id, changes);
      return present({ ...row, ...changes } as WebhookRow);
    },

    async remove(actor: Actor, workspaceId: string, webhookId: string): Promise<void> {
      const { workspace } = await deps.access.require(actor, workspaceId, CAN.administerDelete);
      const row = await requireRow(workspace.id, webhookId);
      await db.transaction().execute(async (trx) => {
        await webhooks.deleteWebhook(trx, row.id);
        await record(trx, {
          workspaceId: workspace.id,
          action: 'webhook_deleted',
          actorId: actorIdOf(actor),
          at: deps.clock.now().toISOString(),
          details: { webhook_id: row.id, url: row.url },
        });
      });
    },

    /** The last deliveries, newest first. */
    async deliveries(actor: Actor, workspaceId: string, webhookId: string) {
      const { workspace } = await deps.access.require(actor, workspaceId, CAN.readAdmin);
      const row = await requireRow(workspace.id, webhookId);
      const rows = await webhooks.listRecentDeliveries(db, row.id, DELIVERY_LOG_SIZE);
      return { data: rows.map(presentDelivery), next_cursor: null };
    },

    /** Sends a logged delivery again, as a new delivery with the same event and body. */
    async redeliver(actor: Actor, workspaceId: string, webhookId: string, deliveryId: string) {
      const { workspace } = await deps.access.require(actor, workspaceId, CAN.administer);
      const row = await requireRow(workspace.id, webhookId);
      const original = await webhooks.findDeliveryOfWebhook(db, row.id, deliveryId);
      if (!original) throw notFound('Delivery');
      const { data } = JSON.parse(original.body) as { data: Record<string, unknown> };
      return presentDelivery(await deps.enqueue(row, original.event, data));
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooks>;
