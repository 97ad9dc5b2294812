/**
 * Change requests (issue 19): a named set of page edits on branch `folio/cr/<number>`,
 * edited through the content API with `?change_request=<number>`, reviewed, and merged
 * into the live branch by Folio or on the git host.
 */
import type { Actor } from '../../domain/actor.js';
import type { Unsubscribe } from '../../events/bus.js';
import { createBranchPages } from './branch-pages.js';
import { createChangeRequestCore } from './change-requests.js';
import { type ChangeRequestDeps, createRequestContext } from './context.js';
import { createRequestMerges } from './merge.js';

export type { ChangeRequestDeps } from './context.js';
export {
  changeRequestParams,
  changeRequestQuery,
  createChangeRequestInput,
  listChangeRequestsInput,
  reviewChangeRequestInput,
} from './inputs.js';

/** The change-request service: its routes' operations, and the content API inside a request. */
export function createChangeRequests(deps: ChangeRequestDeps) {
  const ctx = createRequestContext(deps);
  const core = createChangeRequestCore(ctx);
  const merges = createRequestMerges(ctx);
  let off: Unsubscribe | null = null;
  const checking = new Set<Promise<void>>();

  return {
    create: core.create,
    list: core.list,
    get: core.get,
    review: core.review,
    close: core.close,

    /** Merges an open request (admins; editors once approvals are met); see merge.ts. */
    async merge(actor: Actor, workspace: string, number: number) {
      const { workspace: ws, request } = await merges.merge(actor, workspace, number);
      return (await core.describe(ws, request)).object;
    },

    /** The tree of request `number` as a target of the pages service (`?change_request=<n>`). */
    pageTargets: createBranchPages(ctx),

    /** Listens for syncs of this instance, to recognise requests merged on the git host. */
    start(): void {
      off ??= deps.events.onLocal((event) => {
        if (event.type !== 'sync-completed') return;
        const work = merges.recogniseHostMerges(event.payload.workspace_id).catch((error: unknown) => {
          deps.logger.warn(
            { err: error, workspace_id: event.payload.workspace_id },
            'checking change requests failed',
          );
        });
        checking.add(work);
        void work.finally(() => checking.delete(work));
      });
    },

    /** Stops listening and waits for checks in progress. */
    async stop(): Promise<void> {
      off?.();
      off = null;
      await Promise.all([...checking]);
    },
  };
}

export type ChangeRequestsService = ReturnType<typeof createChangeRequests>;
