import path from 'node:path';
import type { Clock } from '../../lib/clock.js';
import { workspaceDir } from '../../content/workspace-meta.js';
import { notFound } from '../../errors.js';
import type { Store } from '../../store/database.js';
import { type ArchiveEntry, type Download, listTreeFiles, streamArchive } from './zip-archive.js';

const parseSettings = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
};

/**
 * An organization's export: `organization.json`, `members.json` (organization roles and
 * each workspace's members with their roles), and per live workspace
 * `workspaces/<slug>/workspace.json` (its settings) and `workspaces/<slug>/files/…`, every
 * file of its tree (pages, uploads) except git's own directory. What goes in is listed before
 * the first byte is sent; the files are read as the ZIP streams.
 */
export async function exportOrganization(
  deps: { store: Store; clock: Clock; dataDir: string },
  orgId: string,
): Promise<Download> {
  const db = deps.store.db;
  const org = await db
    .selectFrom('orgs')
    .select(['id', 'handle', 'name', 'plan', 'created_at'])
    .where('id', '=', orgId)
    .executeTakeFirst();
  if (!org) throw notFound('Organization');
  const orgMembers = await db
    .selectFrom('org_members')
    .innerJoin('users', 'users.id', 'org_members.user_id')
    .select([
      'users.id',
      'users.name',
      'users.email',
      'users.handle',
      'org_members.role',
      'org_members.created_at',
    ])
    .where('org_members.org_id', '=', orgId)
    .orderBy('org_members.created_at')
    .execute();
  const workspaces = await db
    .selectFrom('workspaces')
    .select(['id', 'name', 'slug', 'git_remote', 'git_branch', 'settings', 'created_at', 'updated_at'])
    .where('org_id', '=', orgId)
    .where('deleted_at', 'is', null)
    .orderBy('slug')
    .execute();

  const entries: ArchiveEntry[] = [];
  const workspaceMembers: Record<string, unknown[]> = {};
  for (const ws of workspaces) {
    workspaceMembers[ws.slug] = await db
      .selectFrom('workspace_members')
      .innerJoin('users', 'users.id', 'workspace_members.user_id')
      .select(['users.id', 'users.name', 'users.email', 'users.handle', 'workspace_members.role'])
      .where('workspace_members.workspace_id', '=', ws.id)
      .orderBy('users.id')
      .execute();
    const { settings, ...fields } = ws;
    entries.push({
      name: `workspaces/${ws.slug}/workspace.json`,
      json: { ...fields, settings: parseSettings(settings) },
    });
    const root = workspaceDir(deps.dataDir, ws.id);
    for (const rel of await listTreeFiles(root)) {
      entries.push({ name: `workspaces/${ws.slug}/files/${rel}`, file: path.join(root, rel) });
    }
  }
  const stream = streamArchive([
    { name: 'organization.json', json: { ...org, exported_at: deps.clock.now().toISOString() } },
    { name: 'members.json', json: { organization: orgMembers, workspaces: workspaceMembers } },
    ...entries,
  ]);
  return { filename: `folio-${org.handle}-${deps.clock.now().toISOString().slice(0, 10)}.zip`, stream };
}
