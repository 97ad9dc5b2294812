/**
 * Notion's "Markdown & CSV" export: every page is `Title <32 hex id>.md`, its sub-pages
 * and images in a folder of the same name, links between pages are URL-encoded relative
 * paths with those ids, and a database is `Name <id>.csv` (with `_all.csv` in newer
 * exports) beside a folder of its row pages. Ids are dropped from names, a page with
 * sub-pages becomes its folder's `index.md`, a database a page with a GFM table.
 */
import path from 'node:path';
import type { ExportFiles } from './archive.js';
import { assetToken, pageToken, slugSegment, type ImportPlan, type PlannedPage } from './plan.js';

const ID_RE = /\s+(?:[0-9a-f]{32})(?=(?:_all)?(?:\.[A-Za-z0-9]+)?$)/;

/** A file or folder name without Notion's id suffix. */
export function withoutNotionId(name: string): string {
  return name.replace(ID_RE, '');
}

/** Whether an export looks like Notion's: Markdown or CSV files named with 32-hex ids. */
export function isNotionExport(files: ExportFiles): boolean {
  return [...files.keys()].some((n) => /\s[0-9a-f]{32}(?:_all)?\.(md|csv)$/.test(n));
}

const LINK_RE = /(!?)\[([^\]\n]*)\]\(<?([^)\s>]+)>?((?:\s+"[^"]*")?)\)/g;

/** Parses RFC 4180 CSV (quoted fields, doubled quotes, newlines in quotes). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const src = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (quoted) {
      if (c === '"' && src[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && src[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((cell) => cell !== ''));
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\r?\n/g, '<br>').trim();

/** Converts a Notion export to a plan. */
export function convertNotion(files: ExportFiles): ImportPlan {
  const plan: ImportPlan = { pages: [], assets: [], kept: [], dropped: [] };
  const names = [...files.keys()].sort();
  const folders = new Set(names.flatMap((n) => parents(n)));
  // Newer exports have both `DB.csv` (the view) and `DB_all.csv` (every row): the latter wins.
  const csvs = names.filter((n) => n.endsWith('.csv'));
  const skipCsv = new Set(
    csvs.filter((n) => !n.endsWith('_all.csv') && files.has(n.replace(/\.csv$/, '_all.csv'))),
  );

  // Target paths: ids dropped and names made into path segments, unique among siblings.
  const used = new Set<string>();
  const unique = (p: string) => {
    let candidate = p;
    for (let n = 2; used.has(candidate.toLowerCase()); n++)
      candidate = p.replace(/(\/index)?\.md$/, `-${n}$1.md`);
    used.add(candidate.toLowerCase());
    return candidate;
  };
  const folderPath = (dir: string) =>
    dir
      .split('/')
      .filter(Boolean)
      .map((s) => slugSegment(withoutNotionId(s)))
      .join('/');
  const targetOf = (file: string): string => {
    const dir = path.posix.dirname(file) === '.' ? '' : path.posix.dirname(file);
    const stem = path.posix.basename(file).replace(/(_all)?\.(md|csv)$/, '');
    const ownFolder = dir ? `${dir}/${stem}` : stem;
    const base = [folderPath(dir), slugSegment(withoutNotionId(stem))].filter(Boolean).join('/');
    return folders.has(ownFolder) ? `${base}/index.md` : `${base}.md`;
  };

  const keyOf = new Map<string, string>();
  let next = 0;
  const pageSources = names.filter((n) => n.endsWith('.md') || (n.endsWith('.csv') && !skipCsv.has(n)));
  for (const n of pageSources) keyOf.set(n, `p${next++}`);
  for (const n of names) {
    if (keyOf.has(n)) continue;
    if (skipCsv.has(n)) {
      plan.kept.push({
        source: n,
        path: '',
        note: 'the database view; its full table came from the _all.csv',
      });
      continue;
    }
    const key = `a${next++}`;
    keyOf.set(n, key);
    plan.assets.push({
      key,
      filename: withoutNotionId(path.posix.basename(n)),
      data: files.get(n)!,
      source: n,
    });
  }
  // Where a CSV's own folder of row pages is, the CSV's `.csv` name points at it too.
  const rewrite = (markdown: string, from: string) =>
    markdown.replace(LINK_RE, (whole, bang: string, text: string, href: string, title: string) => {
      if (/^[a-z][a-z0-9+.-]*:|^#|^\/\//i.test(href)) return whole;
      let decoded = href;
      try {
        decoded = decodeURIComponent(href);
      } catch {
        // kept as written
      }
      const [target, hash] = decoded.split('#') as [string, string | undefined];
      const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(from), target));
      const key = keyOf.get(resolved) ?? keyOf.get(resolved.replace(/\.csv$/, '_all.csv'));
      if (!key) return whole;
      const token = key.startsWith('p') ? pageToken(key) : assetToken(key);
      return `${bang}[${text}](${token}${hash ? `#${hash}` : ''}${title})`;
    });

  for (const n of pageSources) {
    const key = keyOf.get(n)!;
    const stemTitle = withoutNotionId(path.posix.basename(n)).replace(/(_all)?\.(md|csv)$/, '');
    let page: PlannedPage;
    if (n.endsWith('.csv')) {
      const rows = parseCsv(files.get(n)!.toString('utf8'));
      const [head = [], ...body] = rows;
      const table = head.length
        ? [
            `| ${head.map(cell).join(' | ')} |`,
            `| ${head.map(() => '---').join(' | ')} |`,
            ...body.map((r) => `| ${head.map((_, i) => cell(r[i] ?? '')).join(' | ')} |`),
          ].join('\n')
        : '';
      // Row pages live in the database's folder: list them under the table.
      const dir = n.replace(/(_all)?\.csv$/, '');
      const rowPages = pageSources.filter((p) => p.endsWith('.md') && path.posix.dirname(p) === dir);
      const links = rowPages.map(
        (p) => `- [${withoutNotionId(path.posix.basename(p, '.md'))}](${pageToken(keyOf.get(p)!)})`,
      );
      page = {
        key,
        path: unique(targetOfCsv(n)),
        title: stemTitle,
        body: `${table}\n${links.length ? `\n${links.join('\n')}\n` : ''}`,
        source: n,
      };
    } else {
      const text = files
        .get(n)!
        .toString('utf8')
        .replace(/^\uFEFF/, '');
      const heading = /^# (.+)\r?\n+/.exec(text);
      const title = heading?.[1]?.trim() || stemTitle;
      const body = heading ? text.slice(heading[0].length) : text;
      page = { key, path: unique(targetOf(n)), title, body: rewrite(body, n), source: n };
    }
    plan.pages.push(page);
  }
  return plan;

  function targetOfCsv(file: string): string {
    return targetOf(file.replace(/_all\.csv$/, '.csv'));
  }
}

function parents(name: string): string[] {
  const parts = name.split('/');
  return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('/'));
}
