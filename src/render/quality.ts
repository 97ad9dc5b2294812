/**
 * Documentation quality checks behind `GET /api/v1/workspaces/:id/quality` and the MCP
 * `validate_links` / `quality_scan` tools: readability, dead links, missing anchors,
 * completeness and orphans. Pure functions over page bodies; the caller loads pages.
 */
import {
  extractHeadingIds,
  extractLinks,
  maskCode,
  resolvePageTarget,
  slugify,
  type PathLookup,
} from './links.js';
import { WikilinkResolver } from './wikilink-resolver.js';
import { blockAnchors, dialectFindings } from './dialect-quality.js';
import { isPagePath, shadowedPagePaths, stripPageExtension } from '../domain/page-extensions.js';

/** Issue kinds, stable strings for API consumers. */
export type QualityIssueType =
  | 'dead_link'
  | 'ambiguous_link'
  | 'missing_anchor'
  | 'missing_title'
  | 'missing_description'
  | 'empty_page'
  | 'short_page'
  | 'missing_alt'
  | 'orphan_page'
  | 'unknown_component'
  | 'unsupported_icon'
  | 'shadowed_page';

/** One finding on one page. */
export interface QualityIssue {
  type: QualityIssueType;
  severity: 'error' | 'warning';
  path: string;
  message: string;
  /** The link target or image source concerned, as written. */
  target?: string;
  /** 1-based line in the body. */
  line?: number;
}

/** Input of {@link analysePage}. */
export interface PageQualityInput {
  path: string;
  title?: string | null;
  description?: string | null;
  /** Markdown body without frontmatter. */
  body: string;
  /** Ids of this page's own headings (for `#anchor` links); default: derived from the body. */
  headingsById?: PathLookup;
  /** Every page path in the workspace (`.md`, `.mdx`). */
  existingPaths: PathLookup;
  /** Resolves wikilinks by path, file name and title; default: by path among `existingPaths` only. */
  wikilinks?: WikilinkResolver;
  /** Heading ids per page path; a target missing from the map is not anchor-checked. */
  anchorsByPath: ReadonlyMap<string, PathLookup>;
}

/** Result of {@link analysePage}. */
export interface PageQualityReport {
  path: string;
  wordCount: number;
  /** Flesch reading ease, 0–100 (higher is easier). */
  readability: number;
  /** 100 minus the issue penalties, at least 0 (see {@link analyseWorkspace}). */
  score: number;
  issues: QualityIssue[];
  /** Existing pages this page links to (resolved paths), for orphan detection. */
  linksTo: string[];
}

/** Result of {@link analyseWorkspace}. */
export interface WorkspaceQualityReport {
  /** 0–100, see the formula on {@link analyseWorkspace}. */
  score: number;
  pageCount: number;
  averageReadability: number;
  issueCounts: Record<QualityIssueType, number>;
  issues: QualityIssue[];
  pages: PageQualityReport[];
}

/** Below this many words a page is reported as short. */
export const SHORT_PAGE_WORDS = 50;

const PENALTIES: Record<QualityIssueType, number> = {
  dead_link: 15,
  ambiguous_link: 15,
  missing_anchor: 8,
  missing_title: 20,
  missing_description: 5,
  empty_page: 40,
  short_page: 10,
  missing_alt: 5,
  orphan_page: 10,
  unknown_component: 3,
  unsupported_icon: 2,
  shadowed_page: 10,
};

const SEVERITY: Record<QualityIssueType, 'error' | 'warning'> = {
  dead_link: 'error',
  ambiguous_link: 'error',
  missing_anchor: 'error',
  missing_title: 'error',
  empty_page: 'error',
  missing_description: 'warning',
  short_page: 'warning',
  missing_alt: 'warning',
  orphan_page: 'warning',
  unknown_component: 'warning',
  unsupported_icon: 'warning',
  shadowed_page: 'warning',
};

const STRUCTURAL_LINE = /^\s*(?:#{1,6}\s|[-*+]\s|\d+[.)]\s|\|)/;
const LINE_MARKERS = /^\s*(?:>\s*)*(?:#{1,6}\s+|[-*+]\s+(?:\[[ xX]\]\s+)?|\d+[.)]\s+)?/;

/**
 * Prose of a Markdown body for readability: code, HTML, images, URLs and syntax
 * removed; link labels kept. Headings, list items and table rows become sentences of
 * their own so they do not run into the next paragraph.
 */
export function markdownToPlainText(markdown: string): string {
  const text = maskCode(markdown)
    .replace(/<[^<>]*>/g, ' ')
    .replace(/!\[\[[^[\]]*\]\]|!\[[^[\]]*\]\([^()]*\)/g, ' ')
    .replace(/\[\[([^[\]|]*)\|([^[\]]*)\]\]/g, '$2')
    .replace(/\[\[([^[\]#|]*)(?:[#|][^[\]]*)?\]\]/g, (_m, t: string) =>
      stripPageExtension(t.split('/').pop() ?? ''),
    )
    .replace(/^ {0,3}\[[^\]]+\]:\s*\S+.*$/gm, ' ')
    .replace(/\[\^[^[\]]*\]/g, ' ')
    .replace(/\[([^[\]]*)\](?:\([^()]*\)|\[[^[\]]*\])/g, '$1')
    .replace(/<?\b(?:https?|mailto):[^\s>)]+>?/g, ' ');
  const sentences: string[] = [];
  let paragraph: string[] = [];
  const push = (raw: string): void => {
    const t = raw
      .replace(/[|*_~`#=\\]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (t) sentences.push(/[.!?]["')\]]?$/.test(t) ? t : `${t}.`);
  };
  const flush = (): void => {
    if (paragraph.length) push(paragraph.join(' '));
    paragraph = [];
  };
  for (const line of text.split('\n')) {
    if (!line.trim() || /^\s*(?:[-=*_]\s*){3,}$|^\s*[=-]+\s*$/.test(line)) flush();
    else if (STRUCTURAL_LINE.test(line)) {
      flush();
      push(line.replace(LINE_MARKERS, ''));
    } else paragraph.push(line.replace(LINE_MARKERS, ''));
  }
  flush();
  return sentences.join(' ');
}

// The apostrophe is written as an escape so the bundle stays ASCII (see scripts/build.mjs).
const WORD_RE = /[\p{L}\p{N}][\p{L}\p{N}'\u2019-]*/gu;

/** Number of words in plain text. */
export function countWords(text: string): number {
  return text.match(WORD_RE)?.length ?? 0;
}

/** English syllable estimate: vowel groups, minus a silent final e/es/ed. */
function syllables(word: string): number {
  let w = word.toLowerCase().replace(/[^a-z]/g, '');
  if (w.length <= 3) return 1;
  w = w.replace(/(?:[^laeiouy]es|[^laeiouy]ed|[^laeiouy]e)$/, '').replace(/^y/, '');
  return Math.max(1, w.match(/[aeiouy]{1,2}/g)?.length ?? 1);
}

/**
 * Flesch reading ease of a text (Markdown is stripped first):
 * 206.835 − 1.015 × words/sentences − 84.6 × syllables/words, rounded to one decimal
 * and clamped to 0–100. Text without words scores 0.
 */
export function fleschReadingEase(text: string): number {
  return fleschOfPlainText(markdownToPlainText(text));
}

/** {@link fleschReadingEase} of text already stripped by {@link markdownToPlainText}. */
function fleschOfPlainText(plain: string): number {
  const words = plain.match(WORD_RE) ?? [];
  if (words.length === 0) return 0;
  const sentences = Math.max(1, plain.match(/[.!?]+(?=["')\]]?(?:\s|$))/g)?.length ?? 0);
  const syllableCount = words.reduce((sum, w) => sum + syllables(w), 0);
  const score = 206.835 - 1.015 * (words.length / sentences) - 84.6 * (syllableCount / words.length);
  return Math.round(Math.min(100, Math.max(0, score)) * 10) / 10;
}

function issue(
  type: QualityIssueType,
  path: string,
  message: string,
  extra: Partial<QualityIssue> = {},
): QualityIssue {
  return { type, severity: SEVERITY[type], path, message, ...extra };
}

function hasAnchor(anchors: PathLookup, anchor: string): boolean {
  return anchors.has(anchor) || anchors.has(slugify(anchor));
}

/**
 * Checks one page: dead internal links (wikilinks and relative `.md`/`.mdx` links), missing
 * `#anchors` on the target page (or this page), missing title or description, empty or
 * short body (< {@link SHORT_PAGE_WORDS} words) and images without alt text. External
 * links and links to non-page files are not checked (no I/O here).
 */
export function analysePage(input: PageQualityInput): PageQualityReport {
  const { path, body } = input;
  const issues: QualityIssue[] = [];
  const linksTo = new Set<string>();
  const ownAnchors: PathLookup =
    input.headingsById ??
    input.anchorsByPath.get(path) ??
    new Set([...extractHeadingIds(body), ...blockAnchors(body)]);
  for (const found of dialectFindings(body)) {
    const at = { target: found.target, line: found.line };
    issues.push(
      found.kind === 'unknown_component'
        ? issue(found.kind, path, `Component <${found.target}> is not rendered; its content is shown`, at)
        : issue(found.kind, path, `Icon ${found.target} is not available and is left out`, at),
    );
  }

  for (const link of extractLinks(body, path)) {
    const at = { target: link.href, line: link.line };
    if (link.kind === 'image') {
      const missingAlt = link.html ? link.alt === null : !link.alt?.trim();
      if (missingAlt) issues.push(issue('missing_alt', path, `Image without alt text: ${link.href}`, at));
      continue;
    }
    const sameAnchorOnly =
      link.kind === 'wikilink' ? link.href === '' : link.href.startsWith('#') && link.anchor !== null;
    if (sameAnchorOnly && link.anchor) {
      if (!hasAnchor(ownAnchors, link.anchor))
        issues.push(issue('missing_anchor', path, `No heading "#${link.anchor}" on this page`, at));
      continue;
    }
    const isPageLink = link.kind === 'wikilink' || isPagePath(link.targetPath ?? '');
    if (!isPageLink) continue;
    const resolution =
      link.kind === 'wikilink' && link.targetPath && input.wikilinks
        ? input.wikilinks.resolve(link.targetPath)
        : null;
    if (resolution && 'ambiguous' in resolution) {
      const candidates = resolution.ambiguous.join(', ');
      issues.push(
        issue('ambiguous_link', path, `Link matches several pages: ${link.href} (${candidates})`, at),
      );
      continue;
    }
    const target =
      resolution?.path ?? (link.targetPath ? resolvePageTarget(link.targetPath, input.existingPaths) : null);
    if (!target) {
      issues.push(issue('dead_link', path, `Link to a missing page: ${link.targetPath ?? link.href}`, at));
      continue;
    }
    if (target !== path) linksTo.add(target);
    const anchors = input.anchorsByPath.get(target);
    if (link.anchor && anchors && !hasAnchor(anchors, link.anchor))
      issues.push(issue('missing_anchor', path, `No heading "#${link.anchor}" on ${target}`, at));
  }

  if (!input.title?.trim()) issues.push(issue('missing_title', path, 'The page has no title'));
  if (!input.description?.trim())
    issues.push(issue('missing_description', path, 'The page has no description'));
  const plain = markdownToPlainText(body);
  const wordCount = countWords(plain);
  if (wordCount === 0) issues.push(issue('empty_page', path, 'The page has no text'));
  else if (wordCount < SHORT_PAGE_WORDS)
    issues.push(issue('short_page', path, `The page has only ${wordCount} words`));

  return {
    path,
    wordCount,
    readability: fleschOfPlainText(plain),
    score: pageScore(issues),
    issues,
    linksTo: [...linksTo],
  };
}

function pageScore(issues: QualityIssue[]): number {
  return Math.max(0, 100 - issues.reduce((sum, i) => sum + PENALTIES[i.type], 0));
}

function isRootPage(path: string): boolean {
  return /(?:^|\/)(?:index|readme)\.mdx?$/i.test(path);
}

/** One page for {@link analyseWorkspace}. */
export interface WorkspacePageInput {
  path: string;
  title?: string | null;
  description?: string | null;
  body: string;
  /** Exact heading ids (e.g. a render's `toc` ids plus its title id); default: derived from the body. */
  headingIds?: Iterable<string>;
}

/**
 * Checks every page and adds orphans: pages no other page links to, except index and
 * README pages (folder and site roots, reached through navigation) and a workspace's
 * only page; and names each `.mdx` page a `.md` of the same name shadows (one URL, the
 * `.md` is served).
 *
 * Score formula (0–100, higher is better):
 *   page score      = max(0, 100 − Σ penalties of its issues), penalties: dead or ambiguous link 15,
 *                     missing anchor 8, missing title 20, empty page 40, short page 10,
 *                     missing description 5, image without alt 5, orphan 10;
 *   readability pts = min(100, Flesch reading ease / 60 × 100)  (60+ is plain English);
 *   workspace score = round(0.85 × mean(page score) + 0.15 × mean(readability pts)).
 * Structure dominates because broken links and missing pages hurt readers most; an
 * empty workspace scores 100.
 */
export function analyseWorkspace(pages: WorkspacePageInput[]): WorkspaceQualityReport {
  const existingPaths = new Set(pages.map((p) => p.path));
  const wikilinks = new WikilinkResolver(pages);
  const anchorsByPath = new Map<string, Set<string>>(
    pages.map((p) => [
      p.path,
      new Set([...(p.headingIds ?? extractHeadingIds(p.body)), ...blockAnchors(p.body)]),
    ]),
  );
  const reports = pages.map((p) =>
    analysePage({
      path: p.path,
      title: p.title,
      description: p.description,
      body: p.body,
      existingPaths,
      wikilinks,
      anchorsByPath,
    }),
  );
  const inbound = new Set(reports.flatMap((r) => r.linksTo));
  if (pages.length > 1) {
    for (const report of reports) {
      if (inbound.has(report.path) || isRootPage(report.path)) continue;
      report.issues.push(issue('orphan_page', report.path, 'No other page links to this page'));
      report.score = pageScore(report.issues);
    }
  }

  const shadowed = shadowedPagePaths(existingPaths);
  for (const report of reports) {
    if (!shadowed.has(report.path)) continue;
    const winner = `${stripPageExtension(report.path)}.md`;
    const message = `${winner} has the same name and URL; the site serves it, not this page`;
    report.issues.push(issue('shadowed_page', report.path, message, { target: winner }));
    report.score = pageScore(report.issues);
  }

  const issues = reports.flatMap((r) => r.issues);
  const issueCounts = Object.fromEntries(Object.keys(PENALTIES).map((t) => [t, 0])) as Record<
    QualityIssueType,
    number
  >;
  for (const i of issues) issueCounts[i.type]++;
  const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / (values.length || 1);
  const averageReadability = Math.round(mean(reports.map((r) => r.readability)) * 10) / 10;
  const structure = mean(reports.map((r) => r.score));
  const readability = mean(reports.map((r) => Math.min(100, (r.readability / 60) * 100)));
  const score = reports.length === 0 ? 100 : Math.round(0.85 * structure + 0.15 * readability);
  return { score, pageCount: reports.length, averageReadability, issueCounts, issues, pages: reports };
}
