import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from './atomic-write.js';

/** Folder of all workspace working trees inside DATA_DIR. */
export const WORKSPACES_DIR = 'workspaces';

/** Where a workspace's metadata lives inside its tree; `.folio/` is git-ignored by WorkspaceRepo.init. */
export const META_FILE = path.join('.folio', 'workspace.json');

/**
 * What `rebuild` needs to bring a workspace back after the database is lost
 * (CONTRACT.md 6). Written on create, delete and adoption; readers must
 * tolerate missing optional keys, since older or hand-written files may lack them.
 */
export interface WorkspaceMeta {
  version: 1;
  id: string;
  org_id: string;
  org_handle: string;
  name: string;
  slug: string;
  git_remote: string | null;
  git_branch: string;
  settings: Record<string, unknown>;
  /** Kept so configured git hosts keep working after a rebuild. */
  webhook_secret?: string;
  created_at: string;
  /** Set by a soft delete, so a rebuild never resurrects a deleted workspace. */
  deleted_at: string | null;
}

/** `DATA_DIR/workspaces/<id>`: the workspace's git working tree. */
export function workspaceDir(dataDir: string, workspaceId: string): string {
  return path.join(dataDir, WORKSPACES_DIR, workspaceId);
}

/** Writes `.folio/workspace.json` atomically (a crash leaves the old or the new file). */
export async function writeWorkspaceMeta(dir: string, meta: WorkspaceMeta): Promise<void> {
  await writeFileAtomic(path.join(dir, META_FILE), `${JSON.stringify(meta, null, 2)}\n`);
}

/** The metadata of the workspace at `dir`, or null when the file is absent or unusable. */
export async function readWorkspaceMeta(dir: string): Promise<WorkspaceMeta | null> {
  let raw: string;
  try {
    raw = await readFile(path.join(dir, META_FILE), 'utf8');
  } catch {
    return null;
  }
  try {
    const value = JSON.parse(raw) as Partial<WorkspaceMeta>;
    const strings = [value.id, value.org_id, value.name, value.slug];
    if (strings.some((s) => typeof s !== 'string' || s === '')) return null;
    return {
      version: 1,
      id: value.id!,
      org_id: value.org_id!,
      org_handle: typeof value.org_handle === 'string' ? value.org_handle : 'restored',
      name: value.name!,
      slug: value.slug!,
      git_remote: typeof value.git_remote === 'string' ? value.git_remote : null,
      git_branch: typeof value.git_branch === 'string' && value.git_branch ? value.git_branch : 'main',
      settings: isPlainObject(value.settings) ? value.settings : {},
      ...(typeof value.webhook_secret === 'string' ? { webhook_secret: value.webhook_secret } : {}),
      created_at: typeof value.created_at === 'string' ? value.created_at : new Date(0).toISOString(),
      deleted_at: typeof value.deleted_at === 'string' ? value.deleted_at : null,
    };
  } catch {
    return null;
  }
}

/** The ids (folder names) of every workspace tree under DATA_DIR, sorted. */
export async function listWorkspaceDirs(dataDir: string): Promise<string[]> {
  try {
    const entries = await readdir(path.join(dataDir, WORKSPACES_DIR), { withFileTypes: true });
    return entries
      .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The metadata file's content for a workspace row (`settings` is the row's JSON text). */
export function metaFromRow(
  row: {
    id: string;
    org_id: string;
    name: string;
    slug: string;
    git_remote: string | null;
    git_branch: string;
    settings: string;
    webhook_secret: string;
    created_at: string;
    deleted_at: string | null;
  },
  orgHandle: string,
): WorkspaceMeta {
  let settings: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(row.settings);
    if (isPlainObject(parsed)) settings = parsed;
  } catch {
    // Unreadable settings are written as none rather than blocking the save.
  }
  return {
    version: 1,
    id: row.id,
    org_id: row.org_id,
    org_handle: orgHandle,
    name: row.name,
    slug: row.slug,
    git_remote: row.git_remote,
    git_branch: row.git_branch,
    settings,
    webhook_secret: row.webhook_secret,
    created_at: row.created_at,
    deleted_at: row.deleted_at,
  };
}
