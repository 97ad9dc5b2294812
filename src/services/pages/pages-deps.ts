import type { PlanLimits } from '../collab/plan-limits.js';
import type { EventBus } from '../../events/bus.js';
import type { WorkspaceLock } from '../../git/lock.js';
import type { Logger } from '../../logger.js';
import type { Clock } from '../../lib/clock.js';
import type { PlainTextWorker } from '../../search/documents.js';
import type { SearchIndex } from '../../search/search-index.js';
import type { Store } from '../../store/database.js';
import type { WorkspaceRow } from '../../store/schema.js';
import type { AccessService } from '../access.js';
import type { FrontmatterMode } from './page-object.js';
import type { ChangeRequestTargets } from './write-target.js';

/**
 * What page operations ask of reconciliation and move recovery, by shape: the reconciler
 * and the move recovery themselves use page helpers, so naming their modules here would
 * tie those files in a cycle.
 */
export interface PageReconciler {
  reconcileLocked(workspace: WorkspaceRow, options?: { recordActivity?: boolean }): Promise<unknown>;
  /** Queues a reconciliation of the workspace under its lock, without waiting for it. */
  reconcileSoon(workspace: WorkspaceRow): void;
}

export interface PendingMoves {
  /** Finishes the moves a failure left half-done; resolves with how many it finished. */
  finishPending(workspaces?: ReadonlyArray<{ id: string }>): Promise<number>;
}

export interface PagesDeps {
  store: Store;
  clock: Clock;
  events: EventBus;
  logger: Logger;
  access: AccessService;
  searchIndex: SearchIndex;
  /** Derives bodies' plain text in the render workers, one message per worker (search indexes it). */
  plainText?: PlainTextWorker;
  /** Held across hash check, file write and index update of every page write in a workspace. */
  lock: WorkspaceLock;
  reconciler: PageReconciler;
  /** Finishes a move that failed midway from its journal record, right after the failure. */
  moveRecovery: PendingMoves;
  dataDir: string;
  /** The instance's default, for workspaces that set none. */
  frontmatterMode: FrontmatterMode;
  /** The trees of change requests, for operations asked `?change_request=<n>` (none: NOT_FOUND). */
  changeRequestTargets?: ChangeRequestTargets;
  /** The Cloud edition's page limit, asked before a page is created through the API. */
  planLimits?: Pick<PlanLimits, 'requirePage'>;
}
