import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from './atomic-write.js';

/** Folder of all workspace working trees inside DATA_DIR. */
export const WORKSPACES_DIR = 'workspaces';

/**
 * Folder of Folio's own state per workspace inside DATA_DIR (`meta/<id>/`), beside the trees
 * rather than in them: nothing in it can be committed, pushed, or overwritten by a pull.
 */
export const META_DIR = 'meta';

/** The metadata file inside a workspace's `meta/<id>/` folder. */
const META_FILE_NAME = 'workspace.json';

/**
 * Where older versions kept the metadata, inside the tree. Read only by the start-up
 * migration; a file there may have come from a remote and is never trusted otherwise.
 */
export const LEGACY_META_FILE = path.join('.folio', 'workspace.json');

/**
 * Marks a directory as a workspace's real tree. Inside `.git/`, which git never commits,
 * pushes or fetches, so no remote can plant or remove it.
 */
const TREE_MARKER = path.join('.git', 'folio-workspace');

/**
 * What `rebuild` needs to bring a workspace back after the database is lost
 *. Written on create, delete and adoption; readers must
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

/** `DATA_DIR/meta/<id>`: Folio's own state of a workspace, outside its tree. */
export function workspaceMetaDir(dataDir: string, workspaceId: string): string {
  return path.join(dataDir, META_DIR, workspaceId);
}

/** `DATA_DIR/meta/<id>/workspace.json`, the metadata file `rebuild` restores a workspace from. */
export function workspaceMetaFile(dataDir: string, workspaceId: string): string {
  return path.join(workspaceMetaDir(dataDir, workspaceId), META_FILE_NAME);
}

/**
 * Writes the metadata file atomically (a crash leaves the old or the new file), readable by
 * the owner only since it holds the webhook secret.
 */
export async function writeWorkspaceMeta(dataDir: string, meta: WorkspaceMeta): Promise<void> {
  await writeFileAtomic(workspaceMetaFile(dataDir, meta.id), `${JSON.stringify(meta, null, 2)}\n`, {
    mode: 0o600,
  });
}

/** The metadata of workspace `workspaceId`, or null when its file is absent or unusable. */
export function readWorkspaceMeta(dataDir: string, workspaceId: string): Promise<WorkspaceMeta | null> {
  return readWorkspaceMetaFile(workspaceMetaFile(dataDir, workspaceId));
}

/** The metadata in `file`, or null when it is absent or unusable. */
export async function readWorkspaceMetaFile(file: string): Promise<WorkspaceMeta | null> {
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
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

/** Marks `dir` as the tree of workspace `workspaceId` (see `isWorkspaceTree`). */
export async function markWorkspaceTree(dir: string, workspaceId: string): Promise<void> {
  await mkdir(path.join(dir, '.git'), { recursive: true });
  await writeFileAtomic(path.join(dir, TREE_MARKER), `${workspaceId}\n`);
}

/**
 * Whether `dir` is the tree of workspace `workspaceId`: false for a missing directory, an
 * unmounted volume, or an empty repository something recreated there, none of which may be
 * read as "every page deleted".
 */
export async function isWorkspaceTree(dir: string, workspaceId: string): Promise<boolean> {
  try {
    return (await readFile(path.join(dir, TREE_MARKER), 'utf8')).trim() === workspaceId;
  } catch {
    return false;
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
