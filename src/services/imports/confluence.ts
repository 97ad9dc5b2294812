/**
 * Confluence's HTML space export: `index.html` lists the page tree ("Available Pages"),
 * each page is an HTML file whose text is `#main-content`, attachments are under
 * `attachments/<page id>/`. Pages become Markdown through turndown with its GFM plugin
 * (the converter the editor's paste uses); info, note, warning and tip panels become
 * callouts, code macros fenced code with their language, expand macros `<details>`.
 */
import path from 'node:path';
import TurndownService from 'turndown';
import { gfm } from 'turndown-plugin-gfm';
import type { ExportFiles } from './archive.js';
import { assetToken, decodeEntities, pageToken, slugSegment, type ImportPlan } from './plan.js';

const PANEL_TYPES: Record<string, string> = {
  information: 'NOTE',
  info: 'NOTE',
  tip: 'TIP',
  note: 'WARNING',
  warning: 'CAUTION',
};

const hasClass = (node: HTMLElement, name: string) =>
  ` ${node.getAttribute?.('class') ?? ''} `.includes(` ${name} `);

/** The turndown converter with Confluence's macros. */
function converter(): TurndownService {
  const td = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
  });
  td.use(gfm);
  // Chrome of the exported page, and icons standing in for text.
  // A rule, not `remove`: added rules come before turndown's own (a `remove` never sees a <p>).
  td.addRule('chrome', {
    replacement: () => '',
    filter: (node) => {
      const el = node as HTMLElement;
      return (
        hasClass(el, 'confluence-information-macro-icon') ||
        hasClass(el, 'expand-control') ||
        hasClass(el, 'codeHeader') ||
        (el.nodeName === 'IMG' && /(^|\/)images\/icons\//.test(el.getAttribute('src') ?? '')) ||
        (el.nodeName === 'P' &&
          hasClass(el, 'title') &&
          hasClass(el.parentNode as HTMLElement, 'confluence-information-macro'))
      );
    },
  });
  td.addRule('panel', {
    filter: (node) => node.nodeName === 'DIV' && hasClass(node, 'confluence-information-macro'),
    replacement: (content, node) => {
      const el = node as HTMLElement;
      const kind =
        /confluence-information-macro-(\w+)/.exec(el.getAttribute('class') ?? '')?.[1] ?? 'information';
      const title = el.querySelector('p.title')?.textContent?.trim();
      const lines = [
        `[!${PANEL_TYPES[kind] ?? 'NOTE'}]`,
        ...(title ? [`**${title}**`] : []),
        ...content.trim().split('\n'),
      ];
      return `\n\n${lines.map((l) => (l ? `> ${l}` : '>')).join('\n')}\n\n`;
    },
  });
  td.addRule('code-macro', {
    filter: (node) =>
      node.nodeName === 'PRE' &&
      (hasClass(node, 'syntaxhighlighter-pre') || node.hasAttribute('data-syntaxhighlighter-params')),
    replacement: (_content, node) => {
      const el = node as HTMLElement;
      const lang =
        /brush:\s*([\w+#-]+)/.exec(el.getAttribute('data-syntaxhighlighter-params') ?? '')?.[1] ?? '';
      const code = (el.textContent ?? '').replace(/\n$/, '');
      const fence = code.includes('```') ? '````' : '```';
      return `\n\n${fence}${lang === 'none' ? '' : lang}\n${code}\n${fence}\n\n`;
    },
  });
  td.addRule('expand', {
    filter: (node) => node.nodeName === 'DIV' && hasClass(node, 'expand-container'),
    replacement: (content, node) => {
      const el = node as HTMLElement;
      const summary = el.querySelector('.expand-control-text')?.textContent?.trim() || 'Details';
      const safe = summary.replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c]!);
      return `\n\n<details>\n<summary>${safe}</summary>\n\n${content.trim()}\n\n</details>\n\n`;
    },
  });
  return td;
}

interface TreeNode {
  file: string;
  title: string;
  children: TreeNode[];
}

/** The "Available Pages" tree of index.html, from its nested lists. */
function pageTree(indexHtml: string): TreeNode[] {
  const start = indexHtml.search(/Available Pages/i);
  const html = start === -1 ? indexHtml : indexHtml.slice(start);
  const roots: TreeNode[] = [];
  const stack: TreeNode[][] = [];
  let current: TreeNode[] = roots;
  let last: TreeNode | null = null;
  let depth = 0;
  for (const m of html.matchAll(/<(\/?)ul\b[^>]*>|<a\s[^>]*href="([^"]+\.html)"[^>]*>([\s\S]*?)<\/a>/gi)) {
    if (m[2]) {
      last = {
        file: decodeEntities(m[2]),
        title: decodeEntities(m[3]!.replace(/<[^>]+>/g, '')).trim(),
        children: [],
      };
      current.push(last);
    } else if (m[1] === '') {
      depth++;
      if (depth > 1 && last) {
        stack.push(current);
        current = last.children;
      }
    } else {
      depth--;
      if (depth <= 0) break;
      current = stack.pop() ?? roots;
    }
  }
  return roots;
}

/** Converts a Confluence space export to a plan. */
export function convertConfluence(files: ExportFiles): ImportPlan {
  const plan: ImportPlan = { pages: [], assets: [], kept: [], dropped: [] };
  const indexName = [...files.keys()]
    .filter((n) => /(^|\/)index\.html$/.test(n))
    .sort((a, b) => a.length - b.length)[0];
  const base = indexName && path.posix.dirname(indexName) !== '.' ? `${path.posix.dirname(indexName)}/` : '';
  const tree = indexName ? pageTree(files.get(indexName)!.toString('utf8')) : [];

  // Target paths from the tree: a page with children is its folder's index.md.
  const target = new Map<string, { path: string; title: string }>();
  const used = new Set<string>();
  const place = (nodes: TreeNode[], dir: string) => {
    for (const node of nodes) {
      const source = base + node.file;
      if (target.has(source) || !files.has(source)) continue;
      let slug = slugSegment(node.title);
      for (let n = 2; used.has(`${dir}${slug}`); n++) slug = `${slugSegment(node.title)}-${n}`;
      used.add(`${dir}${slug}`);
      const p = node.children.length ? `${dir}${slug}/index.md` : `${dir}${slug}.md`;
      target.set(source, { path: p, title: node.title });
      place(node.children, `${dir}${slug}/`);
    }
  };
  place(tree, '');
  // Pages the tree does not list (orphans) go to the top level.
  for (const n of [...files.keys()].sort()) {
    if (!n.endsWith('.html') || n === indexName || target.has(n) || !n.startsWith(base)) continue;
    const html = files.get(n)!.toString('utf8');
    if (!/id="main-content"/.test(html)) continue;
    const title = titleOf(html) ?? path.posix.basename(n, '.html');
    let slug = slugSegment(title);
    for (let k = 2; used.has(slug); k++) slug = `${slugSegment(title)}-${k}`;
    used.add(slug);
    target.set(n, { path: `${slug}.md`, title });
  }

  const keys = new Map<string, string>();
  let next = 0;
  for (const n of target.keys()) keys.set(n, `p${next++}`);
  for (const n of [...files.keys()].sort()) {
    if (target.has(n) || n === indexName) continue;
    const rel = n.slice(base.length);
    if (n.startsWith(base) && rel.startsWith('attachments/')) {
      const key = `a${next++}`;
      keys.set(n, key);
      plan.assets.push({ key, filename: path.posix.basename(n), data: files.get(n)!, source: n });
    } else if (/^(styles|images|js)\//.test(rel) || /\.(css|js)$/.test(n)) {
      plan.dropped.push({ source: n, reason: "Confluence's own styles, scripts and icons" });
    } else if (n.endsWith('.html')) {
      plan.dropped.push({ source: n, reason: 'not a page of the space' });
    } else {
      plan.dropped.push({ source: n, reason: 'not referenced by the export' });
    }
  }
  // Attachments are stored as `<id>.<ext>`; the pages' attachment lists give their real names.
  for (const source of target.keys()) {
    const html = files.get(source)!.toString('utf8');
    for (const m of html.matchAll(/<a\s[^>]*href="(attachments\/[^"]+)"[^>]*>([^<]+)<\/a>/g)) {
      const resolved = path.posix.normalize(
        path.posix.join(path.posix.dirname(source), decodeEntities(m[1]!)),
      );
      const asset = plan.assets.find((a) => a.source === resolved);
      const name = decodeEntities(m[2]!).trim();
      if (asset && name && !name.includes('/')) asset.filename = name;
    }
  }
  const td = converter();
  for (const [source, { path: p, title }] of target) {
    const html = files.get(source)!.toString('utf8');
    const main = mainContent(html);
    const linked = main.replace(/\b(href|src)="([^"]*)"/g, (whole, attr: string, value: string) => {
      const raw = decodeEntities(value);
      if (/^[a-z][a-z0-9+.-]*:|^#|^\/\//i.test(raw)) return whole;
      const [file, hash] = raw.split('#') as [string, string | undefined];
      let decoded = file;
      try {
        decoded = decodeURI(file);
      } catch {
        // a malformed escape: the name as written
      }
      const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(source), decoded));
      const key = keys.get(resolved);
      if (!key) return whole;
      const token = key.startsWith('p') ? pageToken(key) : assetToken(key);
      return `${attr}="${token}${hash ? `#${hash}` : ''}"`;
    });
    plan.pages.push({
      key: keys.get(source)!,
      path: p,
      title,
      body: `${td.turndown(linked).trim()}\n`,
      source,
    });
  }
  return plan;
}

function titleOf(html: string): string | null {
  const heading =
    /<span id="title-text">([\s\S]*?)<\/span>/.exec(html)?.[1] ??
    /<title>([\s\S]*?)<\/title>/.exec(html)?.[1];
  if (!heading) return null;
  // "SPACE : Page title"
  return (
    decodeEntities(heading.replace(/<[^>]+>/g, ''))
      .replace(/^[^:]*:\s*/, '')
      .trim() || null
  );
}

/** The page's own text: `#main-content` up to the sections the export appends. */
function mainContent(html: string): string {
  const start = html.search(/<div[^>]*id="main-content"[^>]*>/);
  if (start === -1) return /<body[^>]*>([\s\S]*)<\/body>/i.exec(html)?.[1] ?? html;
  const open = html.indexOf('>', start) + 1;
  // Count nested divs to find where #main-content closes.
  let depth = 1;
  const re = /<(\/?)div\b[^>]*>/gi;
  re.lastIndex = open;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    depth += m[1] ? -1 : 1;
    if (depth === 0) return html.slice(open, m.index);
  }
  return html.slice(open);
}
