import type { WebhookDeliveryRow, WebhookRow, WebhooksTable } from '../schema.js';
import type { Queryable } from './queryable.js';

/*
 * A workspace's outbound webhooks and their delivery queue, which is also their log.
 */

/** A webhook of the workspace, or undefined when it has none with that id. */
export async function findWebhookOfWorkspace(
  db: Queryable,
  workspaceId: string,
  webhookId: string,
): Promise<WebhookRow | undefined> {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', webhookId)
    .executeTakeFirst();
}

/** A webhook by id, whatever its workspace. */
export async function findWebhookById(db: Queryable, webhookId: string): Promise<WebhookRow | undefined> {
  return db.selectFrom('webhooks').selectAll().where('id', '=', webhookId).executeTakeFirst();
}

/** The workspace's webhooks, oldest first. */
export async function listWebhooksOfWorkspace(db: Queryable, workspaceId: string): Promise<WebhookRow[]> {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The workspace's webhooks that are turned on, whatever events they want. */
export async function listActiveWebhooksOfWorkspace(
  db: Queryable,
  workspaceId: string,
): Promise<WebhookRow[]> {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('active', '=', 1)
    .execute();
}

export async function insertWebhook(db: Queryable, row: WebhookRow): Promise<void> {
  await db.insertInto('webhooks').values(row).execute();
}

/** Changes some columns of one webhook. */
export async function updateWebhook(
  db: Queryable,
  webhookId: string,
  changes: Partial<Omit<WebhooksTable, 'id'>>,
): Promise<void> {
  await db.updateTable('webhooks').set(changes).where('id', '=', webhookId).execute();
}

/** Deletes the webhook; its deliveries go with it (foreign key cascade). */
export async function deleteWebhook(db: Queryable, webhookId: string): Promise<void> {
  await db.deleteFrom('webhooks').where('id', '=', webhookId).execute();
}

export async function insertDelivery(db: Queryable, row: WebhookDeliveryRow): Promise<void> {
  await db.insertInto('webhook_deliveries').values(row).execute();
}

/** A delivery of the webhook, or undefined. */
export async function findDeliveryOfWebhook(
  db: Queryable,
  webhookId: string,
  deliveryId: string,
): Promise<WebhookDeliveryRow | undefined> {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .where('id', '=', deliveryId)
    .executeTakeFirst();
}

/** The webhook's newest deliveries, newest first, at most `limit`. */
export async function listRecentDeliveries(
  db: Queryable,
  webhookId: string,
  limit: number,
): Promise<WebhookDeliveryRow[]> {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Pending deliveries whose next attempt is due at `at`, soonest first, at most `limit`. */
export async function listDueDeliveries(
  db: Queryable,
  at: string,
  limit: number,
): Promise<WebhookDeliveryRow[]> {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', at)
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();
}

/**
 * Claims a pending delivery for this instance by one conditional UPDATE: it succeeds only
 * when nobody holds it or the holder's claim is older than `staleBefore`. True when claimed.
 */
export async function claimDelivery(
  db: Queryable,
  deliveryId: string,
  at: string,
  staleBefore: string,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ claimed_at: at })
    .where('id', '=', deliveryId)
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', staleBefore)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Writes the outcome of an attempt (and releases the claim, when the changes say so). */
export async function updateDelivery(
  db: Queryable,
  deliveryId: string,
  changes: Partial<Omit<WebhookDeliveryRow, 'id' | 'webhook_id'>>,
): Promise<void> {
  await db.updateTable('webhook_deliveries').set(changes).where('id', '=', deliveryId).execute();
}

/** Keeps the newest `keep` deliveries of the webhook's log; pending ones are never dropped. */
export async function trimDeliveryLog(db: Queryable, webhookId: string, keep: number): Promise<void> {
  const kept = db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('webhook_id', '=', webhookId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(keep);
  await db
    .deleteFrom('webhook_deliveries')
    .where('webhook_id', '=', webhookId)
    .where('status', '!=', 'pending')
    .where('id', 'not in', kept)
    .execute();
}
