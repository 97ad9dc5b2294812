import type { EventBus } from '../../events/bus.js';
import type { ChangedPath } from '../../git/repository.js';

/**
 * The page events for files that reached the live tree through git (a pull, a merged
 * change request): one page event for a single changed page, `bulk-sync` for several
 *. `changed` is what reconciliation changed in the index; `pulled` says how
 * git changed each file, so a rename is announced as a move.
 */
export function announcePulled(
  events: EventBus,
  workspace_id: string,
  pulled: readonly ChangedPath[],
  changed: readonly string[],
): void {
  if (changed.length > 1) {
    events.emit('bulk-sync', { workspace_id, changed_count: changed.length, paths: [...changed] });
    return;
  }
  const [path] = changed;
  if (path === undefined) return;
  const how = pulled.find((c) => c.path === path);
  if (how?.status === 'R' && how.oldPath) {
    events.emit('page-moved', { workspace_id, old_path: how.oldPath, new_path: path, actor: null });
  } else {
    const type = how?.status === 'A' ? 'page-created' : how?.status === 'D' ? 'page-deleted' : 'page-updated';
    events.emit(type, { workspace_id, path, actor: null });
  }
}
