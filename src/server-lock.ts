import { mkdir, readdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Folder of DATA_DIR where each running server process keeps a lock file with its pid
 * (`run/server-<pid>.lock`), so commands that must not run beside a server (`rebuild`,
 * in-process `mcp`) can tell. Several servers may share one DATA_DIR, hence one file each.
 */
export const RUN_DIR = 'run';

const LOCK_RE = /^server-(\d+)\.lock$/;

/** In-process holders per lock file: servers started in one process share its file. */
const holders = new Map<string, number>();

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
 * Marks DATA_DIR as served by this process until `release` is called (or the process
 * dies: a lock file whose pid is gone is stale and ignored).
 */
export async function holdServerLock(dataDir: string): Promise<{ release(): Promise<void> }> {
  const dir = path.join(dataDir, RUN_DIR);
  const file = path.join(dir, `server-${process.pid}.lock`);
  const count = holders.get(file) ?? 0;
  holders.set(file, count + 1);
  if (count === 0) {
    await mkdir(dir, { recursive: true });
    await writeFile(file, `${process.pid}\n`);
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
 * Stale lock files (their process is gone) are removed on the way.
 */
export async function runningServerPid(dataDir: string): Promise<number | null> {
  const dir = path.join(dataDir, RUN_DIR);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return null;
  }
  for (const name of names) {
    const m = LOCK_RE.exec(name);
    if (!m) continue;
    const file = path.join(dir, name);
    const pid = Number(m[1]);
    if (pid === process.pid) continue;
    if (isProcessAlive(pid)) return pid;
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
