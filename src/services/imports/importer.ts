/**
 * Runs an import: converts an export into pages and uploads, writes them through the
 * page and upload services (atomic writes; the index, search and events follow), and
 * commits the whole run as one git commit authored by the person importing, so reverting
 * that commit undoes it. Answers a report of what was converted, kept and dropped.
 */
import path from 'node:path';
import { z } from 'zod';
import { workspaceDir } from '../../content/workspace-meta.js';
import { WorkspaceFiles } from '../../content/workspace-files.js';
import type { Actor } from '../../domain/actor.js';
import { actorIdOf } from '../activity.js';
import { CAN } from '../../domain/policy.js';
import { normalizePagePath } from '../../domain/paths.js';
import { AppError } from '../../errors.js';
import type { AccessService } from '../access.js';
import type { PagesService } from '../pages/pages.js';
import type { createUploads } from '../pages/uploads.js';
import type { GitSyncService } from '../sync/git-sync.js';
import type { ExportFiles } from './archive.js';
import { convertInWorker, detectFormat } from './convert-pool.js';
import { IMPORT_FORMATS, TOKEN_RE, type ImportReport } from './plan.js';

/** The options of an import (CLI flags, HTTP query). */
export const importOptions = z.strictObject({
  from: z
    .enum(IMPORT_FORMATS, { error: `from must be one of ${IMPORT_FORMATS.join(', ')}` })
    .optional()
    .describe('The tool the export comes from; found from the files when omitted.'),
  into: z
    .string()
    .trim()
    .max(500)
    .regex(/^[^.][^:*?"<>|#[\]\\]*$/, 'into must be a folder of the workspace')
    .refine((v) => !/(^|\/)\.\.?(\/|$)/.test(v), 'into must be a folder of the workspace')
    .optional()
    .describe('A folder of the workspace to import into (default: the root).'),
  publish: z
    .preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean())
    .optional()
    .describe('Publish the imported pages (default: drafts).'),
});
export type ImportOptions = z.infer<typeof importOptions>;

/** Progress of a run: items written out of the total. */
export type ImportProgress = (done: number, total: number) => void;

export interface ImporterDeps {
  access: AccessService;
  pages: PagesService;
  uploads: ReturnType<typeof createUploads>;
  git: Pick<GitSyncService, 'commitAsOne'>;
  dataDir: string;
}

export function createImporter(deps: ImporterDeps) {
  return {
    /**
     * Imports an export into the workspace for an editor. Existing pages are never
     * overwritten: a page whose path is taken gets a `-2`, `-3`… name. Assets Folio does
     * not store as uploads (their type) are dropped and reported.
     */
    async run(
      actor: Actor,
      workspace: string,
      files: ExportFiles,
      options: ImportOptions,
      onProgress: ImportProgress = () => {},
    ): Promise<ImportReport> {
      const { workspace: ws } = await deps.access.require(actor, workspace, CAN.edit);
      const from = options.from ?? detectFormat(files);
      // Converting HTML and Markdown is CPU work on untrusted input: a worker thread does it.
      const plan = await convertInWorker(from, files);
      const into = (options.into ?? '').replace(/^\/+|\/+$/g, '');
      const tree = new WorkspaceFiles(workspaceDir(deps.dataDir, ws.id));
      const report: ImportReport = {
        from,
        commit: null,
        converted: [],
        kept: [...plan.kept],
        dropped: [...plan.dropped],
      };

      // Final paths: inside `into`, never over an existing page.
      const finalPath = new Map<string, string>();
      const taken = new Set<string>();
      for (const page of plan.pages) {
        const wanted = into ? `${into}/${page.path}` : page.path;
        let candidate: string;
        try {
          candidate = normalizePagePath(wanted);
        } catch {
          report.dropped.push({ source: page.source, reason: `${wanted} is not a valid page path` });
          continue;
        }
        for (let n = 2; taken.has(candidate) || (await tree.exists(candidate)); n++) {
          candidate = normalizePagePath(wanted.replace(/(\/index)?\.md$/, `-${n}$1.md`));
        }
        taken.add(candidate);
        finalPath.set(page.key, candidate);
      }
      const total = plan.assets.length + finalPath.size;
      let done = 0;
      const assetPath = new Map<string, string>();

      const sha = await deps.git.commitAsOne(
        ws,
        actorIdOf(actor),
        (p) => taken.has(p) || p.startsWith('uploads/'),
        async (written) => {
          for (const asset of plan.assets) {
            try {
              const stored = await deps.uploads.upload(actor, ws.id, {
                filename: asset.filename,
                read: async () => asset.data,
              });
              assetPath.set(asset.key, stored.path);
              written.push(stored.path);
              report.converted.push({ source: asset.source, path: stored.path });
            } catch (error) {
              if (!(error instanceof AppError) || error.code !== 'VALIDATION_ERROR') throw error;
              report.dropped.push({ source: asset.source, reason: error.message });
            }
            onProgress(++done, total);
          }
          for (const page of plan.pages) {
            const target = finalPath.get(page.key);
            if (!target) continue;
            const body = page.body.replace(TOKEN_RE, (whole, kind: string, key: string) => {
              const to = kind === 'page' ? finalPath.get(key) : assetPath.get(key);
              return to ? relativeLink(target, to) : whole;
            });
            await deps.pages.create(actor, ws.id, target, {
              title: page.title.slice(0, 500) || path.posix.basename(target, '.md'),
              body,
              publish: options.publish ?? false,
            });
            written.push(target);
            report.converted.push({ source: page.source, path: target });
            onProgress(++done, total);
          }
          const pages = written.filter((p) => p.endsWith('.md')).length;
          const uploads = written.length - pages;
          return `docs: import ${from} export (${plural(pages, 'page')}, ${plural(uploads, 'upload')})`;
        },
        `docs: import ${from} export (stopped by an error)`,
      );
      report.commit = sha;
      return report;
    },
  };
}

export type Importer = ReturnType<typeof createImporter>;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A relative link from one workspace file to another, URL-encoded per segment. */
function relativeLink(from: string, to: string): string {
  const rel = path.posix.relative(path.posix.dirname(from), to) || path.posix.basename(to);
  return rel.split('/').map(encodeURIComponent).join('/');
}
