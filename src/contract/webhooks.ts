import { z } from 'zod';
import { listOf, record, timestamp } from './shape.js';

/** An outbound webhook; `secret` only in the answer to create. */
export const webhookRecord = record({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()).describe('The event types it receives'),
  active: z.boolean(),
  created_at: timestamp,
  deactivated_reason: z.string().nullable().describe('Why deliveries stopped, when they did'),
  secret: z.string().optional().describe('The signing secret, shown once'),
});
export type Webhook = z.infer<typeof webhookRecord>;

export const webhookList = listOf(webhookRecord);

/** One attempt to deliver an event, from the delivery log. */
export const deliveryRecord = record({
  id: z.string(),
  event: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempt: z.number().int(),
  response_status: z.number().int().nullable(),
  duration_ms: z.number().nullable(),
  error: z.string().nullable(),
  created_at: timestamp,
  delivered_at: timestamp.nullable(),
  next_attempt_at: timestamp.nullable(),
  request_body: z.string(),
});
export type Delivery = z.infer<typeof deliveryRecord>;

export const deliveryList = listOf(deliveryRecord);

/** `POST /api/git/webhook/:id`: a push to the workspace's branch starts a sync; others are ignored. */
export const gitWebhookReceipt = record({ status: z.enum(['accepted', 'ignored']) });
