import path from 'node:path';
import { writeFileAtomic } from '../../content/atomic-write.js';
import { workspaceDir } from '../../content/workspace-meta.js';
import { WorkspaceFiles } from '../../content/workspace-files.js';
import type { Actor } from '../../domain/actor.js';
import { normalizePagePath } from '../../domain/paths.js';
import { CAN } from '../../domain/policy.js';
import { notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { AccessService } from '../access.js';
import type { PagesService } from './pages.js';

/** Where soft-deleted pages wait, inside the workspace but outside git's tracked files. */
export const TRASH_DIR = path.join('.folio', 'trash');

/**
 * The soft delete (the MCP delete): the page's file is
 * copied, byte for byte, into the workspace's trash before the page is
 * deleted the ordinary way, so an agent's mistake is recoverable.
 */
export function createPageTrash(deps: {
  access: AccessService;
  pages: PagesService;
  clock: Clock;
  dataDir: string;
}) {
  return {
    async trash(actor: Actor, workspace: string, rawPath: string) {
      const { workspace: ws } = await deps.access.require(actor, workspace, CAN.deletePage);
      const pagePath = normalizePagePath(rawPath);
      const page = await deps.pages.read(actor, workspace, pagePath);
      const root = workspaceDir(deps.dataDir, ws.id);
      const raw = await new WorkspaceFiles(root).readRaw(pagePath);
      if (!raw) throw notFound('Page');
      const stamp = deps.clock.now().toISOString().replace(/[-:.]/g, '');
      const trashed = path.join(TRASH_DIR, `${page.page_id}-${stamp}.md`);
      await writeFileAtomic(path.join(root, trashed), raw);
      await deps.pages.remove(actor, workspace, pagePath);
      return { deleted: true, page_id: page.page_id, path: pagePath, recoverable_from: trashed };
    },
  };
}
