import type { Selectable } from 'kysely';
import type { CustomDomainsTable } from '../schema.js';
import type { Queryable } from './queryable.js';

/*
 * Custom domains of published sites: one per workspace, pending until its TXT record is
 * found, then verified.
 */

export type CustomDomainRow = Selectable<CustomDomainsTable>;

/** The workspace's domain, or undefined when it has none. */
export async function findDomainOfWorkspace(
  db: Queryable,
  workspaceId: string,
): Promise<CustomDomainRow | undefined> {
  return db
    .selectFrom('custom_domains')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
}

/** The workspace that holds `domain`, whatever its status, or undefined. */
export async function findWorkspaceIdOfDomain(db: Queryable, domain: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('custom_domains')
    .select('workspace_id')
    .where('domain', '=', domain)
    .executeTakeFirst();
  return row?.workspace_id;
}

/** Gives the workspace `row`'s domain in place of any it had. */
export async function replaceDomainOfWorkspace(db: Queryable, row: CustomDomainRow): Promise<void> {
  await deleteDomainOfWorkspace(db, row.workspace_id);
  await db.insertInto('custom_domains').values(row).execute();
}

export async function deleteDomainOfWorkspace(db: Queryable, workspaceId: string): Promise<void> {
  await db.deleteFrom('custom_domains').where('workspace_id', '=', workspaceId).execute();
}

/**
 * Writes a check's outcome (status and times) to the workspace's domain, only while it is
 * still `domain`: a domain replaced during the DNS lookup keeps its own state.
 */
export async function updateDomainCheck(
  db: Queryable,
  workspaceId: string,
  domain: string,
  changes: Partial<Pick<CustomDomainRow, 'status' | 'verified_at' | 'checked_at'>>,
): Promise<void> {
  await db
    .updateTable('custom_domains')
    .set(changes)
    .where('workspace_id', '=', workspaceId)
    .where('domain', '=', domain)
    .execute();
}

/** Verified domains of live workspaces, with each workspace's slug. */
export async function listVerifiedDomainsOfLiveWorkspaces(
  db: Queryable,
): Promise<Array<{ domain: string; slug: string }>> {
  return db
    .selectFrom('custom_domains')
    .innerJoin('workspaces', 'workspaces.id', 'custom_domains.workspace_id')
    .select(['custom_domains.domain', 'workspaces.slug'])
    .where('custom_domains.status', '=', 'verified')
    .where('workspaces.deleted_at', 'is', null)
    .execute();
}

/** Whether `domain` is verified for a live workspace. */
export async function isVerifiedDomainOfLiveWorkspace(db: Queryable, domain: string): Promise<boolean> {
  const row = await db
    .selectFrom('custom_domains')
    .innerJoin('workspaces', 'workspaces.id', 'custom_domains.workspace_id')
    .select('custom_domains.domain')
    .where('custom_domains.domain', '=', domain)
    .where('custom_domains.status', '=', 'verified')
    .where('workspaces.deleted_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

/** Workspaces whose domain still waits for its TXT record. */
export async function listWorkspaceIdsWithPendingDomain(db: Queryable): Promise<string[]> {
  const rows = await db
    .selectFrom('custom_domains')
    .select('workspace_id')
    .where('status', '=', 'pending')
    .execute();
  return rows.map((r) => r.workspace_id);
}
