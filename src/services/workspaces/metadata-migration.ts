import { access, readdir, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { moveFileDurable, removeFileDurable } from '../../content/atomic-write.js';
import { LEGACY_MOVES_DIR, workspaceMovesDir } from '../../content/move-journal.js';
import {
  LEGACY_META_FILE,
  listWorkspaceDirs,
  markWorkspaceTree,
  readWorkspaceMeta,
  readWorkspaceMetaFile,
  workspaceDir,
  writeWorkspaceMeta,
} from '../../content/workspace-meta.js';
import { runGit } from '../../git/git.js';
import type { Logger } from '../../logger.js';
import * as workspacesTable from '../../store/repositories/workspaces.js';
import type { Store } from '../../store/database.js';
import { saveWorkspaceMeta } from './records.js';

export interface MetadataMigrationDeps {
  store: Store;
  dataDir: string;
  logger: Logger;
}

const exists = (p: string): Promise<boolean> => access(p).then(() => true, () => false); // prettier-ignore

/** Paths under `.folio/` that git tracks in `tree`: they came from (or went to) a remote. */
async function trackedFolioPaths(tree: string): Promise<Set<string>> {
  const r = await runGit(tree, ['ls-files', '-z', '--', '.folio'], { allowFailure: true });
  return new Set(r.code === 0 ? r.stdout.split('\0').filter((p) => p !== '') : []);
}

/**
 * Moves what older versions kept inside workspace trees (`.folio/workspace.json`, the move
 * journal in `.folio/moves/`) to `DATA_DIR/meta/<id>/`, and marks each such tree as its
 * workspace's. The database row, when there is one, is the source of the metadata; a file
 * in the tree is used only when git does not track it (a tracked one may have been written
 * by anyone who could push to the remote). The in-tree files are removed either way.
 * Runs at start and before `rebuild`; a tree already migrated costs two stat calls.
 */
export async function moveMetadataOutOfTrees(deps: MetadataMigrationDeps): Promise<void> {
  for (const id of await listWorkspaceDirs(deps.dataDir)) {
    const tree = workspaceDir(deps.dataDir, id);
    const legacyMeta = path.join(tree, LEGACY_META_FILE);
    const legacyMoves = path.join(tree, LEGACY_MOVES_DIR);
    const hasMeta = await exists(legacyMeta);
    if (!hasMeta && !(await exists(legacyMoves))) continue;
    try {
      const tracked = await trackedFolioPaths(tree);
      if (hasMeta) {
        await keepMetaOutside(
          deps,
          id,
          legacyMeta,
          !tracked.has(path.posix.join('.folio', 'workspace.json')),
        );
        await markWorkspaceTree(tree, id);
        await removeFileDurable(legacyMeta);
      }
      await moveJournalOut(deps.dataDir, id, legacyMoves, (name) =>
        tracked.has(path.posix.join('.folio', 'moves', name)),
      );
      deps.logger.info({ workspace_id: id }, 'moved workspace metadata out of the working tree');
    } catch (error) {
      deps.logger.error({ err: error, workspace_id: id }, 'moving workspace metadata out of the tree failed');
    }
  }
}

async function keepMetaOutside(
  deps: MetadataMigrationDeps,
  id: string,
  legacyMeta: string,
  trusted: boolean,
): Promise<void> {
  if (await readWorkspaceMeta(deps.dataDir, id)) return;
  const row = await workspacesTable.findById(deps.store.db, id);
  if (row) return saveWorkspaceMeta(deps.store.db, deps.dataDir, row);
  if (!trusted) {
    deps.logger.warn({ workspace_id: id }, 'ignored a .folio/workspace.json that came from git');
    return;
  }
  const meta = await readWorkspaceMetaFile(legacyMeta);
  if (meta?.id === id) await writeWorkspaceMeta(deps.dataDir, meta);
}

/** Moves the untracked journal records to the workspace's journal folder; tracked ones are dropped. */
async function moveJournalOut(
  dataDir: string,
  id: string,
  legacyMoves: string,
  isTracked: (name: string) => boolean,
): Promise<void> {
  let names: string[];
  try {
    names = await readdir(legacyMoves);
  } catch {
    return;
  }
  const dir = workspaceMovesDir(dataDir, id);
  for (const name of names) {
    const from = path.join(legacyMoves, name);
    if (isTracked(name)) await removeFileDurable(from);
    else await moveFileDurable(from, path.join(dir, name));
  }
  await rmdir(legacyMoves).catch(() => undefined);
}
