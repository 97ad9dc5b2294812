import fs from 'node:fs/promises';
import type { Store } from '../../store/database.js';
import { countUnsentMail } from '../../store/repositories/mail-outbox.js';

/** Free space under which the data directory is reported as low. */
export const LOW_DISK_BYTES = 1024 ** 3;

export interface CheckResult {
  status: 'ok' | 'warn' | 'fail';
  [detail: string]: unknown;
}

export interface Readiness {
  ready: boolean;
  checks: {
    database: CheckResult;
    git: CheckResult;
    commits: CheckResult;
    outbox: CheckResult;
    disk: CheckResult;
    reconciling: CheckResult;
  };
}

export interface HealthDeps {
  store: Store;
  dataDir: string;
  gitVersion: () => Promise<string | null>;
  /** Workspaces whose last commit failed (their edits are on disk but not in git). */
  commitFailures?: () => Array<{ workspace_id: string; error: string; since: string }>;
  /** Start-up reconciliation's progress; null once it is done. */
  reconciling?: () => { done: number; total: number | null } | null;
}

/**
 * What `/api/ready` reports. The database and the git binary decide readiness. Workspaces
 * whose commits fail are named as a warning, like the outbox backlog and free disk space:
 * the instance still serves and saves every workspace (the files are written), and taking
 * it out of a load balancer for one workspace's history would stop all of them.
 */
export function createHealthService(deps: HealthDeps) {
  async function database(): Promise<CheckResult> {
    try {
      await deps.store.ping();
      return { status: 'ok', dialect: deps.store.dialect };
    } catch (error) {
      return { status: 'fail', dialect: deps.store.dialect, error: (error as Error).message };
    }
  }

  async function git(): Promise<CheckResult> {
    const version = await deps.gitVersion();
    return version ? { status: 'ok', version } : { status: 'fail', error: 'git binary not found on PATH' };
  }

  async function outbox(): Promise<CheckResult> {
    try {
      return { status: 'ok', backlog: await countUnsentMail(deps.store.db) };
    } catch (error) {
      return { status: 'fail', error: (error as Error).message };
    }
  }

  /** Free bytes on the data directory's file system, or null when unknown. */
  async function freeDiskBytes(): Promise<number | null> {
    try {
      const stats = await fs.statfs(deps.dataDir);
      return stats.bavail * stats.bsize;
    } catch {
      return null;
    }
  }

  return {
    freeDiskBytes,

    async readiness(): Promise<Readiness> {
      const [db, gitCheck, box, free] = await Promise.all([database(), git(), outbox(), freeDiskBytes()]);
      const disk: CheckResult =
        free === null
          ? { status: 'warn', error: 'free space unknown' }
          : { status: free < LOW_DISK_BYTES ? 'warn' : 'ok', free_bytes: free };
      const failing = deps.commitFailures?.() ?? [];
      const commits: CheckResult =
        failing.length === 0 ? { status: 'ok' } : { status: 'warn', failing_workspaces: failing };
      // Until every workspace has been matched with its files, a read may miss pages that
      // are on disk: a load balancer should wait.
      const progress = deps.reconciling?.() ?? null;
      const reconciling: CheckResult = progress
        ? { status: 'fail', done: progress.done, total: progress.total }
        : { status: 'ok' };
      return {
        ready: db.status === 'ok' && gitCheck.status === 'ok' && progress === null,
        checks: { database: db, git: gitCheck, commits, outbox: box, disk, reconciling },
      };
    },
  };
}

export type HealthService = ReturnType<typeof createHealthService>;
