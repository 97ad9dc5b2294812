import type { Actor } from '../../domain/actor.js';
import { CAN } from '../../domain/policy.js';
import { AppError } from '../../errors.js';
import type { Store } from '../../store/database.js';
import * as pagesTable from '../../store/repositories/pages.js';
import type { AccessService } from '../access.js';
import { actorIdOf, record } from '../activity.js';
import type { Clock } from '../../lib/clock.js';
import type { PagesService } from '../pages/pages.js';
import type { SettingsService } from '../workspaces/settings.js';
import type { EventBus } from '../../events/bus.js';

/** What `POST /api/v1/workspaces/:id/publish` answers. */
export interface PublishResult {
  /** Paths of the pages that were drafts and are now published. */
  published: string[];
  public_site: true;
}

/**
 * Publishes a whole workspace (also the MCP `svc_publish_workspace`): every draft page is
 * set to `published` through the pages service, one ordinary update each, so the files,
 * the index, the search documents, the activity feed and the events stay as consistent as
 * for any edit; then the site is made public. Restricted pages (invalid frontmatter in
 * strict mode) are left alone until someone fixes them.
 */
export function createPublishing(deps: {
  store: Store;
  clock: Clock;
  access: AccessService;
  pages: PagesService;
  settings: SettingsService;
  events: EventBus;
}) {
  const db = deps.store.db;

  /** Publishes one page; false when it vanished or was published meanwhile. */
  async function publishPage(actor: Actor, workspaceId: string, path: string): Promise<boolean> {
    for (let attempt = 0; ; attempt++) {
      try {
        const page = await deps.pages.read(actor, workspaceId, path);
        if (page.status === 'published' || page.restricted) return false;
        await deps.pages.update(actor, workspaceId, path, {
          frontmatter: { status: 'published' },
          lastKnownHash: page.content_hash,
        });
        return true;
      } catch (error) {
        if (error instanceof AppError && error.code === 'NOT_FOUND') return false;
        // Someone saved the page between our read and write: read it again, once.
        if (error instanceof AppError && error.code === 'CONFLICT' && attempt === 0) continue;
        throw error;
      }
    }
  }

  return {
    /** Admins: publishes every draft and turns `public_site` on. */
    async publishWorkspace(actor: Actor, workspaceId: string): Promise<PublishResult> {
      const { workspace } = await deps.access.require(actor, workspaceId, CAN.administer);
      const drafts = await pagesTable.listDrafts(db, workspace.id);
      const published: string[] = [];
      for (const { path } of drafts) {
        if (await publishPage(actor, workspace.id, path)) published.push(path);
      }
      await deps.settings.update(actor, workspace.id, { public_site: true });
      await record(db, {
        workspaceId: workspace.id,
        action: 'workspace_published',
        actorId: actorIdOf(actor),
        at: deps.clock.now().toISOString(),
        details: { pages_published: published.length },
      });
      deps.events.emit('workspace-published', {
        workspace_id: workspace.id,
        published: published.length,
        actor: actorIdOf(actor),
      });
      return { published, public_site: true };
    },
  };
}
