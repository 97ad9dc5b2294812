import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import { seedOrg, seedWorkspace } from '../../../test/helpers/seed-rows.js';
import type { WebhookDeliveryRow, WebhookRow } from '../schema.js';
import * as webhooks from './webhooks.js';

const AT = '2026-03-01T10:00:00.000Z';

function webhook(id: string, fields: Partial<WebhookRow> = {}): WebhookRow {
  return {
    id,
    workspace_id: 'ws-a',
    url: `https://hooks.example/${id}`,
    events: '["page.updated"]',
    secret: 'sealed',
    active: 1,
    failing_since: null,
    deactivated_reason: null,
    created_by: null,
    created_at: AT,
    updated_at: AT,
    ...fields,
  };
}

function delivery(id: string, fields: Partial<WebhookDeliveryRow> = {}): WebhookDeliveryRow {
  return {
    id,
    webhook_id: 'wh-1',
    event: 'page.updated',
    body: '{"data":{}}',
    status: 'delivered',
    attempt: 1,
    next_attempt_at: AT,
    claimed_at: null,
    response_status: 200,
    duration_ms: 5,
    error: null,
    created_at: AT,
    delivered_at: AT,
    ...fields,
  };
}

describeEachDatabase('webhooks repository on $name', (target) => {
  const store = useMigratedStore(target);
  const db = () => store().db;

  it('stores webhooks per workspace, finds, lists, updates and deletes them', async () => {
    await seedOrg(db(), 'org-a');
    await seedWorkspace(db(), 'ws-a', 'org-a');
    await seedWorkspace(db(), 'ws-b', 'org-a');
    await webhooks.insertWebhook(db(), webhook('wh-1'));
    await webhooks.insertWebhook(
      db(),
      webhook('wh-0', { created_at: '2026-02-01T00:00:00.000Z', active: 0 }),
    );
    await webhooks.insertWebhook(db(), webhook('wh-other', { workspace_id: 'ws-b' }));

    expect(await webhooks.findWebhookOfWorkspace(db(), 'ws-a', 'wh-1')).toEqual(webhook('wh-1'));
    expect(await webhooks.findWebhookOfWorkspace(db(), 'ws-a', 'wh-other')).toBeUndefined();
    expect(await webhooks.findWebhookById(db(), 'wh-other')).toMatchObject({ workspace_id: 'ws-b' });
    expect((await webhooks.listWebhooksOfWorkspace(db(), 'ws-a')).map((w) => w.id)).toEqual(['wh-0', 'wh-1']);
    expect((await webhooks.listActiveWebhooksOfWorkspace(db(), 'ws-a')).map((w) => w.id)).toEqual(['wh-1']);

    await webhooks.updateWebhook(db(), 'wh-0', {
      active: 1,
      deactivated_reason: null,
      url: 'https://x.example/',
    });
    expect(await webhooks.findWebhookById(db(), 'wh-0')).toMatchObject({
      active: 1,
      url: 'https://x.example/',
    });

    await webhooks.deleteWebhook(db(), 'wh-0');
    expect(await webhooks.findWebhookById(db(), 'wh-0')).toBeUndefined();
  });

  it('queues deliveries, claims each once, records outcomes and trims the log but not pending ones', async () => {
    await webhooks.insertDelivery(db(), delivery('d-pending', { status: 'pending', delivered_at: null }));
    await webhooks.insertDelivery(
      db(),
      delivery('d-later', { status: 'pending', next_attempt_at: '2026-03-02T00:00:00.000Z' }),
    );
    expect((await webhooks.listDueDeliveries(db(), AT, 20)).map((d) => d.id)).toEqual(['d-pending']);

    expect(await webhooks.claimDelivery(db(), 'd-pending', AT, '2026-03-01T09:55:00.000Z')).toBe(true);
    expect(await webhooks.claimDelivery(db(), 'd-pending', AT, '2026-03-01T09:55:00.000Z')).toBe(false);
    // A claim older than the stale mark is taken over.
    expect(await webhooks.claimDelivery(db(), 'd-pending', AT, '2026-03-01T10:00:00.001Z')).toBe(true);

    await webhooks.updateDelivery(db(), 'd-pending', { status: 'failed', claimed_at: null, error: 'boom' });
    expect(await webhooks.findDeliveryOfWebhook(db(), 'wh-1', 'd-pending')).toMatchObject({
      status: 'failed',
      error: 'boom',
    });
    expect(await webhooks.findDeliveryOfWebhook(db(), 'wh-other', 'd-pending')).toBeUndefined();
    expect(await webhooks.claimDelivery(db(), 'd-pending', AT, AT)).toBe(false);

    for (let i = 1; i <= 3; i++) {
      await webhooks.insertDelivery(
        db(),
        delivery(`d-new-${i}`, { created_at: `2026-03-0${i + 2}T00:00:00.000Z` }),
      );
    }
    expect((await webhooks.listRecentDeliveries(db(), 'wh-1', 2)).map((d) => d.id)).toEqual([
      'd-new-3',
      'd-new-2',
    ]);

    await webhooks.trimDeliveryLog(db(), 'wh-1', 2);
    const left = await webhooks.listRecentDeliveries(db(), 'wh-1', 100);
    expect(left.map((d) => d.id).sort()).toEqual(['d-later', 'd-new-2', 'd-new-3']);
  });
});
