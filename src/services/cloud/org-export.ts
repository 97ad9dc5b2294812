import path from 'node:path';
import type { Clock } from '../../lib/clock.js';
import { workspaceDir } from '../../content/workspace-meta.js';
import { notFound } from '../../errors.js';
import type { Store } from '../../store/database.js';
import * as exportRows from '../../store/repositories/org-export.js';
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
  const org = await exportRows.findOrgForExport(db, orgId);
  if (!org) throw notFound('Organization');
  const orgMembers = await exportRows.listOrgMembersForExport(db, orgId);
  const workspaces = await exportRows.listLiveWorkspacesForExport(db, orgId);

  const entries: ArchiveEntry[] = [];
  const workspaceMembers: Record<string, unknown[]> = {};
  for (const ws of workspaces) {
    workspaceMembers[ws.slug] = await exportRows.listWorkspaceMembersForExport(db, ws.id);
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
  const stream = await streamArchive([
    { name: 'organization.json', json: { ...org, exported_at: deps.clock.now().toISOString() } },
    { name: 'members.json', json: { organization: orgMembers, workspaces: workspaceMembers } },
    ...entries,
  ]);
  return { filename: `folio-${org.handle}-${deps.clock.now().toISOString().slice(0, 10)}.zip`, stream };
}
