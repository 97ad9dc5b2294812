import { workspaceDir } from '../../content/workspace-meta.js';
import { WorkspaceFiles } from '../../content/workspace-files.js';
import type { Actor } from '../../domain/actor.js';
import { readPageMeta } from '../../domain/frontmatter.js';
import { CAN } from '../../domain/policy.js';
import type { QualityIssue, QualityIssueType } from '../../render/quality.js';
import { RenderTimeoutError, type RenderPool } from '../../render/render-pool.js';
import { AppError } from '../../errors.js';
import type { Store } from '../../store/database.js';
import * as pagesTable from '../../store/repositories/pages.js';
import type { AccessService } from '../access.js';

/** `GET /api/v1/workspaces/:id/quality`'s body. */
export interface QualityReport {
  /** 0–100; the formula is documented on `analyseWorkspace`. */
  score: number;
  page_count: number;
  /** Mean Flesch reading ease. */
  average_readability: number;
  issue_counts: Record<QualityIssueType, number>;
  pages: Array<{
    path: string;
    title: string;
    status: string;
    word_count: number;
    readability: number;
    score: number;
    issues: QualityIssue[];
  }>;
}

/** The quality issues a reader meets as a link that goes nowhere (or nowhere certain). */
const BROKEN_LINK_ISSUES = new Set<QualityIssueType>(['dead_link', 'ambiguous_link', 'missing_anchor']);

/** A link of a page that goes nowhere certain, as the MCP `validate_links` lists it. */
export interface BrokenLink {
  path: string;
  target: string | null;
  type: QualityIssueType;
  message: string;
}

/** The report's broken links, page by page: dead and ambiguous links, and missing anchors. */
export function brokenLinksOf(report: QualityReport): { broken: BrokenLink[]; count: number } {
  const broken = report.pages.flatMap((page) =>
    page.issues
      .filter((issue) => BROKEN_LINK_ISSUES.has(issue.type))
      .map((issue) => ({
        path: page.path,
        target: issue.target ?? null,
        type: issue.type,
        message: issue.message,
      })),
  );
  return { broken, count: broken.length };
}

/** Reads at most this many page files at once. */
const READ_CONCURRENCY = 16;

/**
 * Documentation quality of a workspace for its admins (and the MCP `quality_scan`):
 * readability, dead links and missing anchors, missing titles and descriptions, empty or
 * short pages, images without alt text and orphan pages, over every page (drafts
 * included: that is where fixes are cheapest), read from the files themselves. The checks
 * run in a render worker under its time budget, never on the event loop.
 */
export function createQuality(deps: {
  store: Store;
  access: AccessService;
  dataDir: string;
  /** The checks run in the render workers: their cost grows with the pages' text. */
  pool: Pick<RenderPool, 'analyseQuality'>;
}) {
  const db = deps.store.db;

  return {
    async report(actor: Actor, workspaceId: string): Promise<QualityReport> {
      const { workspace } = await deps.access.require(actor, workspaceId, CAN.readAdmin);
      const rows = await pagesTable.listOrderedByPath(db, workspace.id, { includeRestricted: true });
      const files = new WorkspaceFiles(workspaceDir(deps.dataDir, workspace.id));
      // Title and description as the file has them: the index fills a missing title in from the path.
      const read = async (r: (typeof rows)[number]) => {
        const file = await files.read(r.path);
        const meta = file && file.error === undefined ? readPageMeta(file.frontmatter) : undefined;
        return {
          path: r.path,
          title: meta ? (meta.title ?? null) : r.title,
          description: meta ? (meta.description ?? null) : r.description,
          body: file?.body ?? '',
        };
      };
      const inputs: Array<Awaited<ReturnType<typeof read>>> = [];
      for (let i = 0; i < rows.length; i += READ_CONCURRENCY) {
        inputs.push(...(await Promise.all(rows.slice(i, i + READ_CONCURRENCY).map(read))));
      }
      const result = await deps.pool.analyseQuality(inputs).catch((err: unknown) => {
        if (!(err instanceof RenderTimeoutError)) throw err;
        throw new AppError(
          'SERVICE_UNAVAILABLE',
          `The quality checks took longer than ${err.timeoutMs / 1000} s and were stopped`,
        );
      });
      const byPath = new Map(rows.map((r) => [r.path, r]));
      return {
        score: result.score,
        page_count: result.pageCount,
        average_readability: result.averageReadability,
        issue_counts: result.issueCounts,
        pages: result.pages.map((p) => ({
          path: p.path,
          title: byPath.get(p.path)?.title ?? '',
          status: byPath.get(p.path)?.status ?? 'draft',
          word_count: p.wordCount,
          readability: p.readability,
          score: p.score,
          issues: p.issues,
        })),
      };
    },
  };
}
