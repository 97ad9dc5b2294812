import { listWorkspaceDirs, readWorkspaceMeta } from '../../content/workspace-meta.js';
import { slugify } from '../../domain/slug.js';
import { type Actor, isSystem } from '../../domain/actor.js';
import { forbidden, notFound } from '../../errors.js';
import type { Logger } from '../../logger.js';
import * as orgsTable from '../../store/repositories/orgs.js';
import * as workspacesTable from '../../store/repositories/workspaces.js';
import type { Store } from '../../store/database.js';
import type { WorkspaceRow } from '../../store/schema.js';
import { uniqueHandle } from '../identity/accounts.js';
import type { Clock } from '../../lib/clock.js';
import { moveMetadataOutOfTrees } from '../workspaces/metadata-migration.js';
import type { MoveRecovery } from './move-recovery.js';
import type { Reconciler, ReconcileSummary } from './reconcile.js';
import { randomToken } from '../../lib/secrets.js';
import { platformOwnerOrg, saveWorkspaceMeta, uniqueWorkspaceSlug } from '../workspaces/records.js';

/** How a restored workspace found its organization. */
export type Adoption = 'own' | 'platform-owner' | 'pending-first-registration';

export interface RestoredWorkspace {
  id: string;
  slug: string;
  adoption: Adoption;
}

export interface RebuildResult {
  restored: RestoredWorkspace[];
  rebuilt: ReconcileSummary[];
  failed: Array<{ slug: string; error: string }>;
}

export interface RebuildDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  dataDir: string;
  reconciler: Reconciler;
  moveRecovery: MoveRecovery;
}

/**
 * `folio rebuild`: recreates the page and search indexes from the files
 * alone (every page_id comes back from its frontmatter), after restoring
 * from `.folio/workspace.json` any workspace the database no longer knows
 * and finishing page moves a crash interrupted (`.folio/moves`).
 */
export function createRebuilder(deps: RebuildDeps) {
  const db = deps.store.db;

  /**
   * Inserts a row for each workspace tree the database lacks. Its own
   * organization is used while it exists; otherwise the platform owner's
   * organization adopts it, or, before anyone registered, a member-less
   * placeholder holds it until the first registration adopts it.
   */
  async function restore(
    slug: string | undefined,
    progress: (line: string) => void,
  ): Promise<RestoredWorkspace[]> {
    const restored: RestoredWorkspace[] = [];
    for (const id of await listWorkspaceDirs(deps.dataDir)) {
      const meta = await readWorkspaceMeta(deps.dataDir, id);
      if (!meta || meta.id !== id) {
        progress(`skipped workspaces/${id}: no usable meta/${id}/workspace.json`);
        continue;
      }
      if (slug !== undefined && meta.slug !== slug) continue;
      if (await workspacesTable.existsWithId(db, id)) continue;
      const now = deps.clock.now().toISOString();
      const row = await db.transaction().execute(async (trx) => {
        let adoption: Adoption = 'own';
        let orgId = meta.org_id;
        if ((await orgsTable.findOrgById(trx, orgId)) !== undefined) {
          // A placeholder made earlier (this run or a previous one) still waits for the first registration.
          if (!(await orgsTable.hasOrgMembers(trx, orgId))) adoption = 'pending-first-registration';
        } else {
          const owner = await platformOwnerOrg(trx);
          if (owner) {
            adoption = 'platform-owner';
            orgId = owner.id;
          } else {
            adoption = 'pending-first-registration';
            const handle = await uniqueHandle(trx, 'orgs', slugify(meta.org_handle) || 'restored');
            // A placeholder without members, on the free plan, named after its handle.
            await orgsTable.insertOrg(trx, {
              id: orgId,
              handle,
              name: handle,
              plan: 'free',
              created_at: now,
            });
          }
        }
        const taken = await workspacesTable.isSlugTaken(trx, meta.slug);
        const row: WorkspaceRow = {
          id,
          org_id: orgId,
          name: meta.name,
          slug: taken ? await uniqueWorkspaceSlug(trx, meta.slug) : meta.slug,
          git_remote: meta.git_remote,
          git_branch: meta.git_branch,
          sync_status: 'idle',
          settings: JSON.stringify(meta.settings),
          webhook_secret: meta.webhook_secret ?? randomToken(32),
          deleted_at: meta.deleted_at,
          created_at: meta.created_at,
          updated_at: now,
        };
        await workspacesTable.insertRow(trx, row);
        await saveWorkspaceMeta(trx, deps.dataDir, row);
        return Object.assign(row, { adoption });
      });
      const note = row.slug !== meta.slug ? ` (slug ${meta.slug} was taken)` : '';
      progress(
        `restored workspace ${row.slug}${note}: ${row.adoption}${row.deleted_at ? ', soft-deleted' : ''}`,
      );
      restored.push({ id, slug: row.slug, adoption: row.adoption });
    }
    return restored;
  }

  return {
    restore,

    /**
     * Restores, then rebuilds every live workspace (or only `slug`); one
     * failure does not stop the others. An administrative command: only the
     * system actor (the CLI) may run it.
     */
    async rebuild(
      actor: Actor,
      options: { slug?: string; progress?: (line: string) => void } = {},
    ): Promise<RebuildResult> {
      if (!isSystem(actor)) throw forbidden('Only the command-line tool rebuilds the index');
      const progress = options.progress ?? (() => undefined);
      await moveMetadataOutOfTrees(deps);
      const restored = await restore(options.slug, progress);
      const workspaces = await workspacesTable.listLive(
        db,
        options.slug !== undefined ? { slug: options.slug } : {},
      );
      if (options.slug !== undefined && workspaces.length === 0)
        throw notFound(`Workspace "${options.slug}"`);
      const result: RebuildResult = { restored, rebuilt: [], failed: [] };
      for (const ws of workspaces) {
        try {
          // A move a crash interrupted is finished first, so the index is built from whole files.
          const finished = await deps.moveRecovery.finishPending([ws]);
          if (finished > 0) progress(`finished ${finished} interrupted page moves in ${ws.slug}`);
          const s = await deps.reconciler.reconcile(ws, { force: true });
          result.rebuilt.push(s);
          const skipped = s.skipped.length
            ? `, ${s.skipped.length} skipped (${s.skipped.map((f) => `${f.path}: ${f.reason}`).join('; ')})`
            : '';
          progress(
            `rebuilt ${ws.slug}: ${s.pages} pages (${s.added} added, ${s.updated} updated, ${s.moved} moved, ` +
              `${s.removed} removed, ${s.ids_written} ids written${skipped})`,
          );
        } catch (error) {
          deps.logger.error({ err: error, workspace_id: ws.id }, 'rebuild failed');
          result.failed.push({ slug: ws.slug, error: (error as Error).message });
          progress(`FAILED ${ws.slug}: ${(error as Error).message}`);
        }
      }
      return result;
    },
  };
}
