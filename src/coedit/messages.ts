import { z } from 'zod';

const workspaceId = z.string().min(1).max(200);
const pagePath = z.string().min(1).max(1100);
/** A Yjs update or awareness update, base64; 10 MB of text at most, like a page body. */
const bytes = z
  .string()
  .max(14 * 1024 * 1024)
  .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'base64');

/**
 * The `yjs` channel of `/ws`, beside subscriptions (additive to the documented protocol):
 * join a page's room (with the epoch of the state the client already holds,
 * if any), send document and awareness updates, leave, and tell the room a
 * conflict was resolved.
 */
export const yjsClientMessage = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('yjs-join'),
    workspace_id: workspaceId,
    path: pagePath,
    epoch: z.string().max(100).nullable().optional(),
  }),
  z.object({ type: z.literal('yjs-update'), workspace_id: workspaceId, path: pagePath, update: bytes }),
  z.object({ type: z.literal('yjs-awareness'), workspace_id: workspaceId, path: pagePath, update: bytes }),
  z.object({ type: z.literal('yjs-leave'), workspace_id: workspaceId, path: pagePath }),
  z.object({ type: z.literal('yjs-resolved'), workspace_id: workspaceId, path: pagePath }),
]);

export type YjsClientMessage = z.infer<typeof yjsClientMessage>;

/** Whether a parsed JSON message belongs to the `yjs` channel (its type starts with `yjs-`). */
export const isYjsMessage = (message: unknown): boolean =>
  typeof message === 'object' &&
  message !== null &&
  typeof (message as { type?: unknown }).type === 'string' &&
  (message as { type: string }).type.startsWith('yjs-');
