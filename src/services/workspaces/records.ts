import type { Kysely } from 'kysely';
import { metaFromRow, writeWorkspaceMeta } from '../../content/workspace-meta.js';
import { MAX_SLUG_LENGTH, slugify } from '../../domain/slug.js';
import * as orgsTable from '../../store/repositories/orgs.js';
import * as workspacesTable from '../../store/repositories/workspaces.js';
import type { Database, WorkspaceRow } from '../../store/schema.js';

/**
 * `base` or `base-2`, `base-3`… whichever no workspace (live or soft-deleted)
 * holds; slugs stay unique for good so an old URL never points elsewhere.
 */
export async function uniqueWorkspaceSlug(db: Kysely<Database>, wanted: string): Promise<string> {
  const base =
    slugify(wanted)
      .slice(0, MAX_SLUG_LENGTH - 4)
      .replace(/-+$/, '') || 'docs';
  const taken = new Set(await workspacesTable.listSlugsLike(db, base));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** Rewrites the workspace's metadata file from the row (after create, delete, adoption). */
export async function saveWorkspaceMeta(
  db: Kysely<Database>,
  dataDir: string,
  row: WorkspaceRow,
): Promise<void> {
  const handle = await orgsTable.findOrgHandle(db, row.org_id);
  await writeWorkspaceMeta(dataDir, metaFromRow(row, handle ?? 'unknown'));
}

/** The organization of the platform owner (the first user), if that user exists. */
export async function platformOwnerOrg(
  db: Kysely<Database>,
): Promise<{ id: string; handle: string } | undefined> {
  return orgsTable.findPlatformOwnerOrg(db);
}

/**
 * Workspaces restored by `rebuild` before anyone registered
 * sit in organizations with no members. The first registration adopts them
 * into the new owner's organization and drops the empty placeholders.
 * Returns the adopted workspaces.
 */
export async function adoptOrphanWorkspaces(
  trx: Kysely<Database>,
  dataDir: string,
  orgId: string,
): Promise<WorkspaceRow[]> {
  const orphanOrgs = await orgsTable.listMemberlessOrgIds(trx, orgId);
  if (orphanOrgs.length === 0) return [];
  const adopted = await workspacesTable.listByOrgs(trx, orphanOrgs);
  if (adopted.length === 0) return [];
  const emptied = [...new Set(adopted.map((w) => w.org_id))];
  await workspacesTable.moveToOrg(trx, emptied, orgId);
  await orgsTable.deleteOrgs(trx, emptied);
  const moved = adopted.map((w) => ({ ...w, org_id: orgId }));
  for (const w of moved) await saveWorkspaceMeta(trx, dataDir, w);
  return moved;
}
