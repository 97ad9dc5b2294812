import { workspaceDir } from '../../content/workspace-meta.js';
import { type PageFile, WorkspaceFiles } from '../../content/workspace-files.js';
import type { Actor } from '../../domain/actor.js';
import { normalizePagePath } from '../../domain/paths.js';
import { atLeast, type Requirement, type Role } from '../../domain/policy.js';
import { AppError, conflict, invalid, notFound } from '../../errors.js';
import * as pagesTable from '../../store/repositories/pages.js';
import type { PageRow, WorkspaceRow } from '../../store/schema.js';
import { inSync } from './page-object.js';
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

  return {
    db,
    deps,
    filesOf,
    findRow,

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

    /** As `currentLocked`, for readers: takes the lock only when the index must catch up. */
    async current(loc: Located): Promise<Current> {
      const first = await snapshot(loc.files, loc.workspace.id, loc.path);
      if (first.synced) return first;
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
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOTDIR' || code === 'EEXIST' || code === 'EISDIR') {
          throw conflict(`A file or folder is in the way of ${path}`);
        }
        if (code === 'ENAMETOOLONG') throw invalid('path', 'Path is too long for the file system');
        throw error;
      }
    },
  };
}

export type PageContext = ReturnType<typeof createPageContext>;
