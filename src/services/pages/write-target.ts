import type { Actor } from '../../domain/actor.js';
import type { PageWriteRequest } from '../../domain/page-write.js';
import type { PageObject } from './page-object.js';

/** Where a page operation acts: the live tree, or the branch of change request `changeRequest`. */
export interface PageWhere {
  changeRequest?: number | undefined;
}

/**
 * A tree pages are read from and written to. Writes go through `planPageWrite`, so every
 * target applies the same rules; a target owns only how it reads the current file, stores
 * the new bytes and records the change (the live tree: the save batch, its index rows and
 * events; a change request: its worktree and a commit on its branch).
 */
export interface PageWriteTarget {
  read(actor: Actor, workspace: string, path: string): Promise<PageObject>;
  write(
    actor: Actor,
    workspace: string,
    path: string,
    request: PageWriteRequest,
  ): Promise<{ page: PageObject; created: boolean }>;
  move(actor: Actor, workspace: string, from: string, to: string): Promise<PageObject>;
  remove(actor: Actor, workspace: string, path: string): Promise<void>;
}

/** The change requests' trees: the target of request `number`. */
export type ChangeRequestTargets = (number: number) => PageWriteTarget;
