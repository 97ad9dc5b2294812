import { isWorkspaceTree, workspaceDir } from '../../content/workspace-meta.js';
import { type PageFile, WorkspaceFiles } from '../../content/workspace-files.js';
import type { Actor } from '../../domain/actor.js';
import { normalizePagePath } from '../../domain/paths.js';
import { atLeast, type Requirement, type Role } from '../../domain/policy.js';
import { AppError, conflict, invalid, notFound } from '../../errors.js';
import * as pagesTable from '../../store/repositories/pages.js';
import type { PageRow, WorkspaceRow } from '../../store/schema.js';
import { readPageMeta } from '../../domain/frontmatter.js';
import { defaultStatusOf, frontmatterModeOf, inSync, rowFor } from './page-object.js';
import { ULID_RE } from './reconcile-files.js';
import type { PagesDeps } from './pages-deps.js';

export type { PagesDeps } from './pages-deps.js';

export interface Located {
  workspace: WorkspaceRow;
  role: Role;
  path: string;
  files: WorkspaceFiles;
}

export interface Current {
  file: PageFile | null;
  row: PageRow | undefined;
}

/** The helpers every page operation shares: where files are, what the index says, who may see what. */
export function createPageContext(deps: PagesDeps) {
  const db = deps.store.db;

  const filesOf = (workspace: WorkspaceRow) => new WorkspaceFiles(workspaceDir(deps.dataDir, workspace.id));

  const findRow = (workspaceId: string, path: string) => pagesTable.findByPath(db, workspaceId, path);

  async function snapshot(
    files: WorkspaceFiles,
    workspaceId: string,
    path: string,
  ): Promise<Current & { synced: boolean }> {
    const [file, row] = await Promise.all([files.read(path), findRow(workspaceId, path)]);
    const synced = file ? row !== undefined && inSync(row, file) : row === undefined;
    return { file, row, synced };
  }

  /** The page as its file says it is now, or null when the file carries no id to serve it under. */
  async function fromFile(loc: Located, { file, row }: Current): Promise<Current | null> {
    if (!file) {
      // A missing tree (an unmounted volume) is a fault to report, not every page deleted.
      if (!(await isWorkspaceTree(loc.files.root, loc.workspace.id))) {
        throw new Error(`${loc.files.root} is not this workspace's tree`);
      }
      return { file, row: undefined };
    }
    const ownId = file.error === undefined ? readPageMeta(file.frontmatter).id : undefined;
    // An id reconciliation would not keep (not a ULID) is not served either.
    const id = ownId !== undefined && ULID_RE.test(ownId) ? ownId : row?.id;
    if (id === undefined) return null;
    const previous = row?.id === id ? row : undefined;
    const derived = rowFor({
      id,
      workspaceId: loc.workspace.id,
      path: loc.path,
      file,
      previous,
      mode: frontmatterModeOf(loc.workspace, deps.frontmatterMode),
      defaultStatus: defaultStatusOf(loc.workspace),
      now: deps.clock.now().toISOString(),
      updatedBy: previous?.updated_by ?? null,
    });
    return { file, row: derived };
  }

  return {
    db,
    deps,
    filesOf,
    findRow,

    /** The file and its index row as they are now, and whether they agree (see `inSync`). */
    snapshot: (loc: Located) => snapshot(loc.files, loc.workspace.id, loc.path),

    /** Checks the actor's rights (404 without read access, 403 without the role) and normalises the path. */
    async locate(actor: Actor, workspace: string, rawPath: string, need: Requirement): Promise<Located> {
      const access = await deps.access.require(actor, workspace, need);
      const path = normalizePagePath(rawPath);
      return { ...access, path, files: filesOf(access.workspace) };
    },

    /**
     * The file and its index row, reconciling the workspace first when they
     * disagree (an edit on disk or by git). The caller holds the workspace lock.
     */
    async currentLocked(loc: Located): Promise<Current> {
      const first = await snapshot(loc.files, loc.workspace.id, loc.path);
      if (first.synced) return first;
      await deps.reconciler.reconcileLocked(loc.workspace, { recordActivity: true });
      return snapshot(loc.files, loc.workspace.id, loc.path);
    },

    /**
     * As `currentLocked`, for readers, who never wait on a writer: when the index is
     * behind the file (a write between its rename and its index transaction, an edit on
     * disk, a pull), the file is served as it is, described by a row derived from it,
     * and the index catches up in the background. Only a file new on disk without an id
     * waits for reconciliation, which writes the id it will keep.
     */
    async current(loc: Located): Promise<Current> {
      const first = await snapshot(loc.files, loc.workspace.id, loc.path);
      if (first.synced) return first;
      const served = await fromFile(loc, first);
      if (served) {
        deps.reconciler.reconcileSoon(loc.workspace);
        return served;
      }
      return deps.lock.run(loc.workspace.id, async () => {
        const again = await snapshot(loc.files, loc.workspace.id, loc.path);
        if (again.synced) return again;
        await deps.reconciler.reconcileLocked(loc.workspace, { recordActivity: true });
        return snapshot(loc.files, loc.workspace.id, loc.path);
      });
    },

    /**
     * NOT_FOUND for a page that is absent, or restricted (strict frontmatter
     * mode) while the caller is below admin. A path the page moved away from
     * says where it went in `details.moved_to`.
     */
    async requireVisible(loc: Located, current: Current): Promise<{ file: PageFile; row: PageRow }> {
      const { file, row } = current;
      if (file && row && (row.restricted === 0 || atLeast(loc.role, 'admin'))) return { file, row };
      if (!file) {
        const moved = await pagesTable.findMovedFrom(db, loc.workspace.id, loc.path);
        if (moved) throw new AppError('NOT_FOUND', 'Page not found', { details: { moved_to: moved.path } });
      }
      throw notFound('Page');
    },

    /** Runs a file-system write, turning "something is in the way" into 409 and over-long names into 400. */
    async fsWrite<T>(path: string, write: () => Promise<T>): Promise<T> {
      try {
        return await write();
      } catch (error) {
        throw fsFailure(path, error);
      }
    },

    /** What a failed file-system write of `path` answers: see `fsWrite`. */
    fsFailure,
  };
}

export type PageContext = ReturnType<typeof createPageContext>;

/** "Something is in the way" as 409 and an over-long name as 400; other errors unchanged. */
function fsFailure(path: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOTDIR' || code === 'EEXIST' || code === 'EISDIR') {
    return conflict(`A file or folder is in the way of ${path}`);
  }
  if (code === 'ENAMETOOLONG') return invalid('path', 'Path is too long for the file system');
  return error;
}
