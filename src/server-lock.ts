import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Folder of DATA_DIR where each running server process keeps a lock file
 * (`run/server-<pid>.lock`), so commands that must not run beside a server (`rebuild`,
 * in-process `mcp`) can tell. Several servers may share one DATA_DIR, hence one file each.
 */
export const RUN_DIR = 'run';

const LOCK_RE = /^server-(\d+)\.lock$/;

/** In-process holders per lock file: servers started in one process share its file. */
const holders = new Map<string, number>();

/**
 * What a lock file records: enough to tell that its server is gone even when the pid
 * names a live process (pids are reused, and a container's server is often pid 1 at every
 * start) or when DATA_DIR is a copy of one whose server still runs.
 */
interface LockRecord {
  pid: number;
  /** The process's start time as the system reports it (clock ticks since boot on Linux). */
  started: string | null;
  /** The boot the process ran in (Linux's boot id): after a reboot or on another machine, it is gone. */
  boot: string | null;
  /** `dev:ino` of the DATA_DIR it serves: a copied DATA_DIR is another directory. */
  dir: string | null;
}

/** Whether a process with this pid exists on this host (EPERM: it exists, owned by someone else). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * When the process `pid` started, as an opaque string that differs for a later process
 * given the same pid; null when the system does not say (no /proc and no `ps`).
 */
export function processStartTime(pid: number): string | null {
  try {
    // Field 22 of /proc/<pid>/stat, counted after the command name, which may hold spaces.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    // No /proc (macOS, the BSDs): ps says when the process started.
  }
  try {
    const started = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 2000,
    }).trim();
    return started || null;
  } catch {
    return null;
  }
}

let cachedBootId: string | null | undefined;
/** This boot of this machine (Linux), or null where the system has no boot id. */
function bootId(): string | null {
  if (cachedBootId === undefined) {
    try {
      cachedBootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
    } catch {
      cachedBootId = null;
    }
  }
  return cachedBootId;
}

async function dirIdentity(dataDir: string): Promise<string | null> {
  try {
    const { dev, ino } = await stat(dataDir);
    return `${dev}:${ino}`;
  } catch {
    return null;
  }
}

/** A lock file's record; a file from an older version holds the pid alone. */
function parseLock(text: string, pid: number): LockRecord {
  try {
    const parsed = JSON.parse(text) as Partial<LockRecord>;
    if (parsed && typeof parsed === 'object' && parsed.pid === pid) {
      return { pid, started: parsed.started ?? null, boot: parsed.boot ?? null, dir: parsed.dir ?? null };
    }
  } catch {
    // The older form: the pid and a newline.
  }
  return { pid, started: null, boot: null, dir: null };
}

/**
 * Whether the server a lock names is still running on this DATA_DIR: same directory (not a
 * copy), same boot, a live process with that pid that started when the lock says. What a
 * lock does not record (an older lock file, a system without boot ids) is not held against it.
 */
function lockIsLive(lock: LockRecord, dir: string | null): boolean {
  if (lock.dir !== null && dir !== null && lock.dir !== dir) return false;
  const boot = bootId();
  if (lock.boot !== null && boot !== null && lock.boot !== boot) return false;
  if (!isProcessAlive(lock.pid)) return false;
  if (lock.started === null) return true;
  const started = processStartTime(lock.pid);
  return started === null || started === lock.started;
}

/**
 * Marks DATA_DIR as served by this process until `release` is called (or the process
 * dies, or DATA_DIR is copied: such a lock is stale and ignored).
 */
export async function holdServerLock(dataDir: string): Promise<{ release(): Promise<void> }> {
  const dir = path.join(dataDir, RUN_DIR);
  const file = path.join(dir, `server-${process.pid}.lock`);
  const count = holders.get(file) ?? 0;
  holders.set(file, count + 1);
  if (count === 0) {
    await mkdir(dir, { recursive: true });
    const record: LockRecord = {
      pid: process.pid,
      started: processStartTime(process.pid),
      boot: bootId(),
      dir: await dirIdentity(dataDir),
    };
    await writeFile(file, `${JSON.stringify(record)}\n`);
  }
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      const left = (holders.get(file) ?? 1) - 1;
      if (left > 0) return void holders.set(file, left);
      holders.delete(file);
      await unlink(file).catch(() => undefined);
    },
  };
}

/**
 * The pid of a live server holding a lock on DATA_DIR (this process excluded), or null.
 * Stale lock files (their process is gone, or they came with a copy of DATA_DIR) are
 * removed on the way.
 */
export async function runningServerPid(dataDir: string): Promise<number | null> {
  const dir = path.join(dataDir, RUN_DIR);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return null;
  }
  const here = await dirIdentity(dataDir);
  for (const name of names) {
    const m = LOCK_RE.exec(name);
    if (!m) continue;
    const file = path.join(dir, name);
    const pid = Number(m[1]);
    if (pid === process.pid) continue;
    const text = await readFile(file, 'utf8').catch(() => null);
    if (text === null) continue;
    if (lockIsLive(parseLock(text, pid), here)) return pid;
    await unlink(file).catch(() => undefined);
  }
  return null;
}

/**
 * A second server on a DATA_DIR whose database is SQLite: refused, since SQLite is one
 * machine's, and the instances' in-process locks and caches would not see each other.
 */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `Another Folio (pid ${pid}) is serving ${dataDir} with SQLite. Run one instance per DATA_DIR, ` +
        'or use DATABASE_URL (PostgreSQL) and REDIS_URL to run several.',
    );
    this.name = 'DataDirInUseError';
  }
}
