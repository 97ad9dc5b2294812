import type { EventBus, Unsubscribe } from '../../events/bus.js';
import type { FolioEvent } from '../../events/types.js';

/** What a webhook can subscribe to; `ping` is sent once, when it is created. */
export const WEBHOOK_EVENTS = [
  'page.created',
  'page.updated',
  'page.moved',
  'page.deleted',
  'comment.created',
  'sync.completed',
  'conflict.detected',
  'version.created',
  'workspace.published',
  'change_request.opened',
  'change_request.reviewed',
  'change_request.merged',
  'change_request.closed',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** A bus event as a webhook event and its data, or null when no webhook hears of it. */
export function webhookEventOf(
  event: FolioEvent,
): { workspaceId: string; name: WebhookEvent; data: Record<string, unknown> } | null {
  const workspaceId = event.payload.workspace_id;
  const as = (name: WebhookEvent, data: Record<string, unknown>) => ({ workspaceId, name, data });
  switch (event.type) {
    case 'page-created':
    case 'page-updated':
    case 'page-deleted': {
      const { path, actor } = event.payload;
      return as(`page.${event.type.slice('page-'.length)}` as WebhookEvent, { path, actor });
    }
    case 'page-moved': {
      const { old_path, new_path, actor } = event.payload;
      return as('page.moved', { old_path, new_path, actor });
    }
    case 'comment-changed': {
      const { path, comment_id, actor, change } = event.payload;
      return change === 'created' ? as('comment.created', { path, comment_id, actor }) : null;
    }
    case 'sync-completed':
      return as('sync.completed', { trigger: event.payload.trigger, changes: event.payload.changes });
    case 'conflict-detected':
      return as('conflict.detected', { path: event.payload.path });
    case 'versions-changed': {
      const { change, slug, name } = event.payload;
      return change === 'created' ? as('version.created', { slug, name }) : null;
    }
    case 'workspace-published':
      return as('workspace.published', { published: event.payload.published, actor: event.payload.actor });
    case 'change-request-opened':
    case 'change-request-reviewed':
    case 'change-request-merged':
    case 'change-request-closed': {
      const { workspace_id: _id, ...data } = event.payload;
      return as(`change_request.${event.type.slice('change-request-'.length)}` as WebhookEvent, data);
    }
    default:
      return null;
  }
}

/**
 * Queues a delivery for each event this instance emits that a webhook wants. Only local
 * emits: with several instances each event is queued once, by the instance it happened on.
 */
export function queueWebhookEvents(
  events: EventBus,
  queue: (workspaceId: string, name: WebhookEvent, data: Record<string, unknown>) => Promise<void>,
  onError: (error: unknown) => void,
): Unsubscribe {
  return events.onLocal((event) => {
    const mapped = webhookEventOf(event);
    if (mapped) void queue(mapped.workspaceId, mapped.name, mapped.data).catch(onError);
  });
}
