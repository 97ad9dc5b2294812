/**
 * Outbound webhooks: definitions and their delivery log (webhooks.ts), the queue and its
 * worker (delivery.ts), which events they hear (events.ts), SSRF checks (target.ts) and
 * the signed POST itself (send.ts).
 */
import path from 'node:path';
import type { EventBus } from '../../events/bus.js';
import type { Clock } from '../../lib/clock.js';
import { createSecretBox } from '../../lib/secret-box.js';
import type { Logger } from '../../logger.js';
import type { Metrics } from '../../metrics/metrics.js';
import type { Store } from '../../store/database.js';
import type { AccessService } from '../access.js';
import { createWebhookDelivery, type DeliveryOptions } from './delivery.js';
import { queueWebhookEvents } from './events.js';
import type { TargetRules } from './target.js';
import { createWebhooks } from './webhooks.js';

export { WEBHOOK_EVENTS } from './events.js';
export { signatureOf } from './send.js';
export { checkTarget, type TargetRules } from './target.js';
export type { DeliveryOptions } from './delivery.js';
export {
  createWebhookInput,
  deliveryParams,
  updateWebhookInput,
  webhookParams,
  type WebhooksService,
} from './webhooks.js';

export interface OutboundWebhooksDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  access: AccessService;
  events: EventBus;
  dataDir: string;
  rules: TargetRules;
  metrics?: Pick<Metrics, 'webhookDeliveries'>;
  options?: DeliveryOptions;
}

/** The webhooks service, and the worker that delivers what the workspace's events queue. */
export function createOutboundWebhooks(deps: OutboundWebhooksDeps) {
  const secrets = createSecretBox(path.join(deps.dataDir, 'webhook-secrets.key'));
  const delivery = createWebhookDelivery({
    ...{ store: deps.store, clock: deps.clock, logger: deps.logger, rules: deps.rules },
    ...(deps.metrics ? { metrics: deps.metrics } : {}),
    ...deps.options,
    secretOf: (webhook) => secrets.open(webhook.id, webhook.secret),
  });
  const webhooks = createWebhooks({
    ...{ store: deps.store, clock: deps.clock, access: deps.access, rules: deps.rules, secrets },
    enqueue: delivery.enqueue,
  });
  queueWebhookEvents(
    deps.events,
    async (workspaceId, name, data) => {
      for (const webhook of await delivery.subscribers(workspaceId, name))
        await delivery.enqueue(webhook, name, data);
    },
    (error) => deps.logger.warn({ err: error }, 'queueing a webhook delivery failed'),
  );
  return { webhooks, delivery };
}
