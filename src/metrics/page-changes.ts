import type { EventBus } from '../events/bus.js';
import type { EventType } from '../events/types.js';
import type { Metrics } from './metrics.js';

/** The page events, by what they count as. */
const PAGE_CHANGES: Partial<Record<EventType, string>> = {
  'page-created': 'created',
  'page-updated': 'updated',
  'page-moved': 'moved',
  'page-deleted': 'deleted',
};

/**
 * Counts page changes as this instance emits them. With Redis every instance hears every
 * event, so counting what is emitted here keeps each instance to its own work.
 */
export function countPageChanges(events: EventBus, metrics: Metrics): void {
  if (!metrics.enabled) return;
  events.onLocal((event) => {
    const change = PAGE_CHANGES[event.type];
    if (change) metrics.pageChanges.inc({ change });
  });
}
