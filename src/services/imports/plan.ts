/**
 * What a converter makes of an export before anything is written: pages with Markdown
 * bodies and assets to store as uploads. Bodies link to other imported pages and assets
 * through tokens ({@link pageToken}, {@link assetToken}) that the import replaces with
 * relative links once the final paths and upload names are known.
 */

export interface PlannedPage {
  key: string;
  /** Where the page goes, relative to the import's folder, ending in `.md`. */
  path: string;
  title: string;
  body: string;
  /** The export file it came from. */
  source: string;
}

export interface PlannedAsset {
  key: string;
  filename: string;
  data: Buffer;
  source: string;
}

/** The report of an import: what became pages and uploads, what was kept as it was, what was left out. */
export interface ImportReport {
  from: ImportFormat;
  commit: string | null;
  converted: Array<{ source: string; path: string }>;
  kept: Array<{ source: string; path: string; note: string }>;
  dropped: Array<{ source: string; reason: string }>;
}

export const IMPORT_FORMATS = [
  'notion',
  'confluence',
  'gitbook',
  'obsidian',
  'mkdocs',
  'docusaurus',
] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export interface ImportPlan {
  pages: PlannedPage[];
  assets: PlannedAsset[];
  kept: ImportReport['kept'];
  dropped: ImportReport['dropped'];
}

export const pageToken = (key: string) => `folio-import-page-${key}`;
export const assetToken = (key: string) => `folio-import-asset-${key}`;
export const TOKEN_RE = /folio-import-(page|asset)-([A-Za-z0-9]+)/g;

/** A file or folder name made into a path segment: lower case words joined by dashes. */
export function slugSegment(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return slug || 'page';
}

/** Decodes the HTML entities export titles and attributes use. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|#39|nbsp);/gi, (m, e: string) => {
    const k = e.toLowerCase();
    if (k.startsWith('#x')) return String.fromCodePoint(parseInt(k.slice(2), 16));
    if (k.startsWith('#')) return String.fromCodePoint(Number(k.slice(1)));
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }[k] ?? m;
  });
}
