/**
 * Imports started over HTTP run in the background as jobs the web app polls for their
 * progress and report. Jobs live in the memory of the instance that runs them (kept an
 * hour after they end); only the person who started one may read it.
 */
import { ulid } from 'ulid';
import type { Actor } from '../../domain/actor.js';
import { CAN } from '../../domain/policy.js';
import { AppError, invalid, notFound } from '../../errors.js';
import type { AccessService } from '../access.js';
import { readZipExport } from './archive.js';
import type { ImportOptions, Importer } from './importer.js';
import type { ImportReport } from './plan.js';

export interface ImportJob {
  id: string;
  status: 'reading' | 'importing' | 'done' | 'failed';
  progress: { done: number; total: number };
  report: ImportReport | null;
  error: { error: string; message: string } | null;
  created_at: string;
}

const KEEP_MS = 60 * 60 * 1000;
const MAX_JOBS = 500;

export function createImportJobs(deps: { access: AccessService; importer: Importer }) {
  const jobs = new Map<string, { job: ImportJob; userId: string; workspaceId: string; endedAt?: number }>();

  const prune = () => {
    const now = Date.now();
    for (const [id, j] of jobs) if (j.endedAt && now - j.endedAt > KEEP_MS) jobs.delete(id);
  };

  return {
    /**
     * Starts importing a ZIP export (the request body as it came) for an editor of the
     * workspace; answers the job at once. Access is checked before the body is looked at.
     */
    async start(actor: Actor, workspace: string, zip: unknown, options: ImportOptions): Promise<ImportJob> {
      const { workspace: ws } = await deps.access.require(actor, workspace, CAN.edit);
      if (!Buffer.isBuffer(zip) || zip.length === 0)
        throw invalid(
          'file',
          'Send the export as a ZIP file in the request body (Content-Type: application/zip)',
        );
      prune();
      if (jobs.size >= MAX_JOBS)
        throw new AppError('RATE_LIMITED', 'Too many imports are running; try again later');
      const job: ImportJob = {
        id: ulid(),
        status: 'reading',
        progress: { done: 0, total: 0 },
        report: null,
        error: null,
        created_at: new Date().toISOString(),
      };
      const entry: { job: ImportJob; userId: string; workspaceId: string; endedAt?: number } = {
        job,
        userId: actor.userId,
        workspaceId: ws.id,
      };
      jobs.set(job.id, entry);
      // A ZIP that is not one Folio accepts is refused now, with its reason, not as a failed job.
      const files = await readZipExport(zip).catch((error: unknown) => {
        jobs.delete(job.id);
        throw error;
      });
      job.status = 'importing';
      void deps.importer
        .run(actor, ws.id, files, options, (done, total) => {
          job.progress = { done, total };
        })
        .then((report) => {
          job.report = report;
          job.status = 'done';
        })
        .catch((error: unknown) => {
          job.status = 'failed';
          job.error =
            error instanceof AppError
              ? { error: error.code, message: error.message }
              : {
                  error: 'INTERNAL_ERROR',
                  message: 'The import failed; nothing after the failure was written',
                };
        })
        .finally(() => (entry.endedAt = Date.now()));
      return { ...job };
    },

    /** A job of the caller's in this workspace (for those who may import); 404 for anyone else's. */
    async get(actor: Actor, workspace: string, id: string): Promise<ImportJob> {
      const { workspace: ws } = await deps.access.require(actor, workspace, CAN.edit);
      const entry = jobs.get(id);
      if (!entry || entry.workspaceId !== ws.id || entry.userId !== actor.userId) throw notFound('Import');
      return { ...entry.job };
    },
  };
}
