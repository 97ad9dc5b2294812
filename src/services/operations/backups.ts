import { randomBytes } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { copyFile, mkdir, readdir, readlink, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { TEMP_PREFIX } from '../../content/atomic-write.js';
import type { Logger } from '../../logger.js';
import { RUN_DIR } from '../../server-lock.js';
import { PgDumpUnavailableError } from '../../store/pg-dump.js';
import type { Store } from '../../store/database.js';
import { VERSION } from '../../version.js';
import type { Clock } from '../../lib/clock.js';

/** Folder of DATA_DIR holding one folder per backup. */
export const BACKUPS_DIR = 'backups';
/** Written in place of the database when PostgreSQL cannot be dumped here. */
export const NO_DATABASE_NOTE = 'DATABASE-NOT-INCLUDED.txt';
/** The manifest, written last: a backup folder without it was not finished by this code. */
export const MANIFEST = 'backup.json';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** A scheduled backup never runs sooner than this after start, so start-up stays light. */
const MIN_DELAY_MS = 5 * 60_000;
/** Timers are re-armed at least this often (setTimeout cannot wait more than ~24.8 days). */
const MAX_TIMER_MS = DAY;

// The live database files are skipped (the snapshot from the store replaces them), and so are
// the running servers' lock files.
const SKIPPED_TOP_LEVEL = new Set([
  BACKUPS_DIR,
  RUN_DIR,
  'folio.db',
  'folio.db-wal',
  'folio.db-shm',
  'folio.db-journal',
]);
const NAME_RE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z(?:-\d+)?$/;
const TEMP_RE = /^\.tmp-(\d{8}T\d{6}Z)-/;

/** Compact UTC timestamp used as a backup's folder name (`20260115T103045Z`). */
export const backupName = (at: Date): string =>
  at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** When the backup called `name` was taken, or null for a folder that is not a backup. */
export function backupTime(name: string): Date | null {
  const m = NAME_RE.exec(name);
  return m ? new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!)) : null;
}

export interface BackupResult {
  /** Absolute path of the finished backup folder. */
  path: string;
  name: string;
  /** The database file in the backup, or null when it could not be included (see NO_DATABASE_NOTE). */
  database: string | null;
  workspaces: number;
  /** Names of the backups removed afterwards under BACKUP_RETENTION_DAYS. */
  pruned: string[];
}

export interface BackupDeps {
  dataDir: string;
  store: Store;
  clock: Clock;
  logger: Logger;
  /** BACKUP_RETENTION_DAYS: older backups are pruned; 0 keeps every backup. */
  retentionDays: number;
  /** BACKUP_INTERVAL_HOURS: how often the server takes one; 0 turns scheduling off. */
  intervalHours: number;
}

/**
 * Consistent snapshots of an instance into `DATA_DIR/backups/<timestamp>/`: the database
 * (SQLite online backup, or pg_dump), every workspace tree with its `.git`, and the other
 * files of DATA_DIR (JWT key, API-key pepper), so a backup restores as a DATA_DIR. Each is
 * assembled in a hidden temp folder and renamed into place only when complete, so a folder
 * with a backup's name is always a whole backup. See docs/operations.md.
 */
export function createBackups(deps: BackupDeps) {
  const root = path.join(deps.dataDir, BACKUPS_DIR);
  let running: Promise<BackupResult> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = true;

  async function names(): Promise<string[]> {
    const entries = await readdir(root, { withFileTypes: true }).catch(() => [] as Dirent[]);
    return entries.map((e) => e.name);
  }

  async function snapshot(): Promise<BackupResult> {
    const now = deps.clock.now();
    await mkdir(root, { recursive: true, mode: 0o700 });
    const tmp = path.join(root, `.tmp-${backupName(now)}-${randomBytes(4).toString('hex')}`);
    await mkdir(tmp, { mode: 0o700 });
    try {
      let database: string | null;
      try {
        database = path.basename(await deps.store.backupTo(tmp));
      } catch (err) {
        if (!(err instanceof PgDumpUnavailableError)) throw err;
        database = null;
        deps.logger.warn('backup: pg_dump is not on PATH, so this backup holds no database');
        await writeFile(path.join(tmp, NO_DATABASE_NOTE), noDatabaseNote(now));
      }
      const workspaces = await copyDataDir(tmp);
      await writeFile(
        path.join(tmp, MANIFEST),
        `${JSON.stringify({ version: VERSION, created_at: now.toISOString(), dialect: deps.store.dialect, database, workspaces }, null, 2)}\n`,
      );
      const name = await placeBackup(tmp, backupName(now));
      return { path: path.join(root, name), name, database, workspaces: workspaces.length, pruned: [] };
    } catch (err) {
      await rm(tmp, { recursive: true, force: true });
      throw err;
    }
  }

  /** Copies DATA_DIR's own files and workspace trees into `dest`; returns the workspace ids. */
  async function copyDataDir(dest: string): Promise<string[]> {
    const entries = await readdir(deps.dataDir, { withFileTypes: true });
    for (const entry of entries) {
      if (SKIPPED_TOP_LEVEL.has(entry.name) || entry.name.startsWith(TEMP_PREFIX)) continue;
      await copyEntry(path.join(deps.dataDir, entry.name), path.join(dest, entry.name), entry);
    }
    const workspaces = await readdir(path.join(dest, 'workspaces'), { withFileTypes: true }).catch(() => []);
    return workspaces.filter((e) => e.isDirectory()).map((e) => e.name);
  }

  /** Renames the finished temp folder to `name`, or `name-2`… when a backup took that second already. */
  async function placeBackup(tmp: string, name: string): Promise<string> {
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? name : `${name}-${n}`;
      try {
        await mkdir(path.join(root, candidate)); // claims the name; rename replaces an empty folder
        await rename(tmp, path.join(root, candidate));
        return candidate;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
    }
  }

  /**
   * Removes backups older than the retention period, always keeping the newest one, and
   * temp folders left by a crash a day or more ago. Returns the names removed.
   */
  async function prune(): Promise<string[]> {
    if (deps.retentionDays === 0) return [];
    const now = deps.clock.now().getTime();
    const cutoff = now - deps.retentionDays * DAY;
    const all = await names();
    const backups = all
      .map((name) => ({ name, at: backupTime(name) }))
      .filter((b): b is { name: string; at: Date } => b.at !== null)
      .sort((a, b) => b.at.getTime() - a.at.getTime() || b.name.localeCompare(a.name));
    const doomed = backups
      .slice(1)
      .filter((b) => b.at.getTime() < cutoff)
      .map((b) => b.name);
    for (const name of all) {
      const started = TEMP_RE.exec(name)?.[1];
      const at = started ? backupTime(started) : null;
      if (at && at.getTime() < now - DAY) doomed.push(name);
    }
    for (const name of doomed) await rm(path.join(root, name), { recursive: true, force: true });
    return doomed;
  }

  /** Time of the newest backup, if any. */
  async function latest(): Promise<Date | null> {
    const times = (await names()).map(backupTime).filter((t): t is Date => t !== null);
    return times.length ? new Date(Math.max(...times.map((t) => t.getTime()))) : null;
  }

  async function run(): Promise<BackupResult> {
    // One at a time: a scheduled run and a CLI-triggered one in this process share the work.
    running ??= (async () => {
      try {
        const result = await snapshot();
        result.pruned = await prune();
        deps.logger.info({ backup: result.path, pruned: result.pruned }, 'backup written');
        return result;
      } finally {
        running = null;
      }
    })();
    return running;
  }

  async function arm(startedAt: number): Promise<void> {
    if (stopped) return;
    const interval = deps.intervalHours * HOUR;
    const last = await latest();
    // Without any backup yet, the first comes an hour after start (or sooner for a shorter
    // interval), so a server restarted more often than the interval still takes them.
    const due = last ? last.getTime() + interval : startedAt + Math.min(interval, HOUR);
    const now = deps.clock.now().getTime();
    const delay = Math.min(Math.max(due - now, startedAt + MIN_DELAY_MS - now, 0), MAX_TIMER_MS);
    if (stopped) return;
    timer = setTimeout(() => void tick(startedAt), delay);
    timer.unref();
  }

  async function tick(startedAt: number): Promise<void> {
    timer = null;
    const last = await latest();
    const dueAt = last ? last.getTime() + deps.intervalHours * HOUR : 0;
    if (!stopped && deps.clock.now().getTime() >= dueAt) {
      await run().catch((err: unknown) => deps.logger.error({ err }, 'scheduled backup failed'));
    }
    await arm(startedAt);
  }

  return {
    /** Takes a backup now, then prunes old ones. */
    run,
    prune,
    /** Names of the finished backups, newest first. */
    async list(): Promise<string[]> {
      return (await names()).filter((n) => backupTime(n) !== null).sort((a, b) => b.localeCompare(a));
    },

    /** Starts the periodic backup (BACKUP_INTERVAL_HOURS; 0 = off). */
    start(): void {
      if (deps.intervalHours === 0 || !stopped) return;
      stopped = false;
      const startedAt = deps.clock.now().getTime();
      void arm(startedAt).catch((err: unknown) => deps.logger.error({ err }, 'could not schedule backups'));
    },

    /** Stops scheduling and waits for a backup in progress to finish. */
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running?.catch(() => undefined);
    },
  };
}

/**
 * Copies a file, folder or symlink. Files that vanish during the copy (a page deleted
 * meanwhile) are skipped rather than failing the whole backup; hidden temp files of
 * in-flight atomic writes and git's lock files are left out.
 */
async function copyEntry(src: string, dest: string, entry: Dirent): Promise<void> {
  if (entry.name.startsWith(TEMP_PREFIX) || isGitLockFile(src, entry)) return;
  try {
    if (entry.isDirectory()) {
      await mkdir(dest, { recursive: true });
      const children = await readdir(src, { withFileTypes: true });
      // In a repository, refs are copied before objects: git writes objects before the ref
      // that names them, so a commit landing mid-copy cannot leave a ref to a missing object.
      if (entry.name === '.git')
        children.sort((a, b) => Number(a.name === 'objects') - Number(b.name === 'objects'));
      for (const child of children) {
        await copyEntry(path.join(src, child.name), path.join(dest, child.name), child);
      }
    } else if (entry.isSymbolicLink()) {
      await symlink(await readlink(src), dest);
    } else if (entry.isFile()) {
      await copyFile(src, dest);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

function noDatabaseNote(at: Date): string {
  return [
    `This backup (${at.toISOString()}) holds no copy of the PostgreSQL database,`,
    'because the pg_dump program was not found on PATH when it was taken.',
    '',
    'Install the PostgreSQL client tools (the same major version as the server) so that',
    'later backups include dump.sql, or back the database up with your own tooling.',
    'The workspace files in this folder are complete; after restoring them,',
    '`folio rebuild` recreates the page and search index from them.',
    '',
  ].join('\n');
}

/** A `*.lock` file inside a `.git` folder: git's claim on a file it is rewriting, never data. */
const isGitLockFile = (src: string, entry: Dirent): boolean =>
  entry.isFile() && entry.name.endsWith('.lock') && src.split(path.sep).includes('.git');
