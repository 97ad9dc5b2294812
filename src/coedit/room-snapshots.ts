import { createHash } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../content/atomic-write.js';
import { workspaceMetaDir } from '../content/workspace-meta.js';

/** A room's Yjs state as last saved, with the file hash it was saved at. */
export interface RoomSnapshot {
  /** The room's lineage: clients holding state of another epoch start fresh. */
  epoch: string;
  /**
   * The page's content_hash when the state was written. The state holds that file's body
   * and may run ahead of it with edits not saved yet (they are saved when the room opens again).
   */
  contentHash: string;
  /**
   * The page body (as stored) at `contentHash`: what the state's text is diffed against when
   * the file changed while no room was open. Null in a state stored before it was kept.
   */
  base: string | null;
  state: Uint8Array;
}

/**
 * Where rooms keep their Yjs state between runs: DATA_DIR/meta/<workspace>/coedit/,
 * beside the workspace tree rather than in `.folio/` inside it, for the reason the
 * rest of meta/ lives there: nothing in it can be committed, pushed or replaced by
 * a pull. One file per page, named by a hash of its path.
 */
export function createRoomSnapshots(dataDir: string) {
  const fileOf = (workspaceId: string, pagePath: string) =>
    path.join(
      workspaceMetaDir(dataDir, workspaceId),
      'coedit',
      `${createHash('sha256').update(pagePath).digest('hex').slice(0, 32)}.json`,
    );

  return {
    /** The page's saved state, or null when none was saved or it cannot be read. */
    async load(workspaceId: string, pagePath: string): Promise<RoomSnapshot | null> {
      try {
        const parsed = JSON.parse(await readFile(fileOf(workspaceId, pagePath), 'utf8')) as Record<
          string,
          unknown
        >;
        if (parsed.path !== pagePath) return null;
        if (typeof parsed.epoch !== 'string' || typeof parsed.content_hash !== 'string') return null;
        if (typeof parsed.state !== 'string') return null;
        return {
          epoch: parsed.epoch,
          contentHash: parsed.content_hash,
          base: typeof parsed.base === 'string' ? parsed.base : null,
          state: new Uint8Array(Buffer.from(parsed.state, 'base64')),
        };
      } catch {
        return null;
      }
    },

    /** Writes the state atomically (temp file, fsync, rename). */
    async save(workspaceId: string, pagePath: string, snapshot: RoomSnapshot): Promise<void> {
      const data = JSON.stringify({
        path: pagePath,
        epoch: snapshot.epoch,
        content_hash: snapshot.contentHash,
        base: snapshot.base,
        state: Buffer.from(snapshot.state).toString('base64'),
      });
      await writeFileAtomic(fileOf(workspaceId, pagePath), data);
    },

    /** Forgets a page's state (it was moved or deleted). */
    async remove(workspaceId: string, pagePath: string): Promise<void> {
      await rm(fileOf(workspaceId, pagePath), { force: true });
    },
  };
}

export type RoomSnapshots = ReturnType<typeof createRoomSnapshots>;
