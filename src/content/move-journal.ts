import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ulid } from 'ulid';
import { normalizePagePath } from '../domain/paths.js';
import { removeFileDurable, TEMP_PREFIX, writeFileAtomic } from './atomic-write.js';
import { workspaceMetaDir } from './workspace-meta.js';

/** Folder of a workspace's move journal inside its `DATA_DIR/meta/<id>/` folder. */
const MOVES_DIR_NAME = 'moves';

/**
 * `DATA_DIR/meta/<id>/moves`: where a workspace's unfinished page moves are journalled.
 * Outside the tree, so a record is never committed, listed as a page, shown in the tree,
 * or planted by a pull (recovery acts on what it finds there).
 */
export function workspaceMovesDir(dataDir: string, workspaceId: string): string {
  return path.join(workspaceMetaDir(dataDir, workspaceId), MOVES_DIR_NAME);
}

/** Where older versions journalled moves, inside the tree; only the start-up migration reads it. */
export const LEGACY_MOVES_DIR = path.join('.folio', 'moves');

/** A page move under way: written before the move touches a file, removed once it is indexed. */
export interface MoveRecord {
  page_id: string;
  /** Canonical workspace-relative page paths. */
  from: string;
  to: string;
  /** The user id of who moved the page; null for the system actor. */
  actor: string | null;
  started_at: string;
}

const RECORD_NAME_RE = /^([0-9A-HJKMNP-TV-Z]{26})\.json$/;

const isCanonicalPage = (p: unknown): p is string => {
  try {
    return typeof p === 'string' && normalizePagePath(p) === p;
  } catch {
    return false;
  }
};

/**
 * The record in `raw`, or null when it is not one. Paths must be canonical page paths,
 * so a hand-edited record can never make recovery touch anything but pages.
 */
export function parseMoveRecord(raw: string): MoveRecord | null {
  let value: Partial<Record<keyof MoveRecord, unknown>>;
  try {
    value = JSON.parse(raw) as typeof value;
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { page_id, from, to, actor, started_at } = value;
  if (typeof page_id !== 'string' || page_id === '') return null;
  if (!isCanonicalPage(from) || !isCanonicalPage(to) || from === to) return null;
  if (actor !== null && typeof actor !== 'string') return null;
  if (typeof started_at !== 'string') return null;
  return { page_id, from, to, actor, started_at };
}

/**
 * The move journal of one workspace in folder `dir` (`workspaceMovesDir`): one small JSON
 * file per move in progress, named by a ULID so that records sort in the order the moves began.
 */
export class MoveJournal {
  private readonly dir: string;

  constructor(dir: string) {
    this.dir = path.resolve(dir);
  }

  /** Records a move durably (temp file, fsync, rename, directory fsync); returns its id. */
  async begin(record: MoveRecord): Promise<string> {
    const id = ulid();
    await writeFileAtomic(this.fileOf(id), `${JSON.stringify(record, null, 2)}\n`);
    return id;
  }

  /** Whether the folder holds anything: records, or temp files of a record a crash cut short. */
  async hasEntries(): Promise<boolean> {
    try {
      return (await readdir(this.dir)).length > 0;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
  }

  /** Ids of the records present, oldest first. Empty when the folder does not exist. */
  async list(): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    return names.flatMap((n) => RECORD_NAME_RE.exec(n)?.[1] ?? []).sort();
  }

  /**
   * The record `id`: `undefined` when it is gone (another process finished the move),
   * `null` when the file is there but unusable.
   */
  async read(id: string): Promise<MoveRecord | null | undefined> {
    let raw: string;
    try {
      raw = await readFile(this.fileOf(id), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    return parseMoveRecord(raw);
  }

  /** Removes a record once its move is complete (durably: the directory is fsynced). */
  async finish(id: string): Promise<void> {
    await removeFileDurable(this.fileOf(id));
  }

  /** Deletes temp files a crash left while a record was being written; they hold nothing of value. */
  async removeTempFiles(): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return;
    }
    for (const n of names) {
      if (n.startsWith(TEMP_PREFIX)) await removeFileDurable(path.join(this.dir, n));
    }
  }

  private fileOf(id: string): string {
    return path.join(this.dir, `${id}.json`);
  }
}
