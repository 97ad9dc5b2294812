import type { z } from 'zod';
import { WorkspaceFiles } from '../../content/workspace-files.js';
import type { Actor } from '../../domain/actor.js';
import { parsePageFile, readPageMeta } from '../../domain/frontmatter.js';
import { CAN } from '../../domain/policy.js';
import type { AccessService } from '../access.js';
import type { FrontmatterPatch } from '../pages/page-inputs.js';
import type { PageObject } from '../pages/page-object.js';
import type { PagesService } from '../pages/pages.js';
import type { PageHistoryService } from './history.js';
import type { restorePageInput } from './inputs.js';

/**
 * The frontmatter patch that turns the page's current keys into the revision's: every key of
 * the revision (but `id`, which is Folio's), and `null` for each key it did not have.
 */
function patchTo(
  current: Record<string, unknown>,
  revision: Record<string, unknown>,
): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(current)) {
    if (key !== 'id' && key !== 'title' && !(key in revision)) patch[key] = null;
  }
  for (const [key, value] of Object.entries(revision)) if (key !== 'id') patch[key] = value;
  return patch;
}

/**
 * `POST …/history/restore` (editors): writes a past revision of a page as a new save
 * through the pages service, so the file, index, search, activity, events and the git
 * commit happen as for any edit, and git history is never rewritten. A page deleted since
 * is created again, under its old page_id when the revision carries it.
 */
export function createHistoryRestore(deps: {
  access: AccessService;
  pages: PagesService;
  history: PageHistoryService;
}) {
  return async (
    actor: Actor,
    workspace: string,
    input: z.infer<typeof restorePageInput>,
  ): Promise<{ page: PageObject; restored_from: string; created: boolean }> => {
    // Edit rights first, so a viewer learns nothing more than 403 from a restore.
    await deps.access.require(actor, workspace, CAN.edit);
    const at = await deps.history.locate(actor, workspace, input.page);
    const sha = await deps.history.commitOf(at, input.commit);
    const revision = parsePageFile((await deps.history.revisionAt(at, sha)).text);
    const frontmatter = revision.error === undefined ? revision.frontmatter : {};
    const current = await new WorkspaceFiles(at.root).read(at.path);
    if (!current) {
      const pageId = readPageMeta(frontmatter).id;
      const page = await deps.pages.recreate(actor, workspace, at.path, {
        frontmatter,
        body: revision.body,
        pageId,
      });
      return { page, restored_from: sha, created: true };
    }
    const { page } = await deps.pages.update(actor, workspace, at.path, {
      body: revision.body,
      ...(input.lastKnownHash !== undefined ? { lastKnownHash: input.lastKnownHash } : {}),
      ...(revision.error === undefined
        ? {
            frontmatter: patchTo(
              current.error === undefined ? current.frontmatter : {},
              frontmatter,
            ) as FrontmatterPatch,
          }
        : {}),
    });
    return { page, restored_from: sha, created: false };
  };
}
