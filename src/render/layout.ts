/**
 * Complete HTML documents for the published site and the static export: page, search
 * results and not-found. Plain string templates (no engine) so a page costs
 * microseconds on top of its cached body. Every interpolated value is escaped with
 * `escapeHtml`/`safeHref`; only `page.html` (already sanitised by markdown.ts) and
 * search snippets (re-checked by `escapeSnippet`) are embedded as HTML.
 *
 * Pages work without JavaScript. The inline scripts (light/dark toggle in <head>; copy
 * buttons and the navigation drawer at the end of <body>) and the inline `<style>` carry
 * the CSP nonce; nothing else does.
 */
import { SEARCH_TOTAL_CAP } from '../search/index.js';
import { TABS_SCRIPT } from './dialects/index.js';
import { escapeHtml, escapeSnippet, safeHref } from './escape.js';
import type { TocEntry } from './markdown.js';
import { themeCss, themeSupportsToggle, type ThemeName } from './themes.js';
import { PALETTE_LOADER, paletteAttributes, paletteButton, type PaletteInput } from './palette.js';

/**
 * A placeholder to pass as `nonce` when the caller needs the page before its nonce:
 * The page's ETag is computed over that form, then the placeholder is replaced by
 * the request's nonce (`html.replaceAll(NONCE_PLACEHOLDER, nonce)`).
 */
export const NONCE_PLACEHOLDER = '__FOLIO_CSP_NONCE__';

/** One entry of the navigation tree; a node with children renders as a collapsible group. */
export interface NavNode {
  title: string;
  /** The page's href; folders without an index page have none. */
  href?: string | null;
  children?: NavNode[];
  /** True for the page being shown (its ancestors' groups open automatically). */
  active?: boolean;
}

/** A titled link: breadcrumbs, previous/next. */
export interface LinkRef {
  title: string;
  href: string;
}

/** One documentation version offered in the version menu. */
export interface VersionLink {
  slug: string;
  name: string;
  href: string;
  current: boolean;
}

/** Options shared by every document this module renders. */
export interface ShellInput {
  siteTitle: string;
  theme: ThemeName;
  /** CSP nonce for the inline `<style>` and `<script>`; omit where no CSP applies (export). */
  nonce?: string;
  /** Stylesheet URL; when absent the theme CSS is inlined in a `<style>`. */
  cssHref?: string;
  /** Favicon URL (SVG, PNG or ICO, told apart by its extension); none without it. */
  iconHref?: string;
  /**
   * Href of the site root: `/p/docs/`, `/` on a custom domain; inside the export the
   * root's file (`../index.html`), since a folder href opens no page from disk.
   */
  basePath?: string;
  /** Search form action (GET, `q`); no search box without it. */
  searchAction?: string;
  versions?: VersionLink[];
  /** `lang` of the document (default `en`). */
  lang?: string;
  /** Trusted HTML added to the site footer (the published site's analytics consent form). */
  footerHtml?: string;
  /** Stylesheets a page's body needs besides the theme (KaTeX's, for math). */
  stylesheets?: string[];
  /** Scripts a page's body needs (Mermaid and its loader, for diagrams), run deferred with the nonce. */
  scripts?: string[];
  /** The instant search palette (palette.ts): its files and where its results come from. */
  palette?: PaletteInput;
}

/** Everything {@link renderSitePage} needs. */
export interface SitePageInput extends ShellInput {
  siteDescription?: string;
  basePath: string;
  page: {
    title: string;
    description?: string;
    /** Sanitised body HTML from `RenderedPage.html`. */
    html: string;
    toc: TocEntry[];
    /** ISO 8601 timestamp or Date. */
    updatedAt?: string | Date;
    /** Name of the last author, shown beside the date. */
    updatedBy?: string;
    /** Where "Edit this page" goes: the editor for members who may edit, else the workspace's edit URL. */
    editHref?: string;
  };
  nav: NavNode[];
  /** Ancestors of the page, root first; the page itself is appended. */
  breadcrumbs: LinkRef[];
  prev?: LinkRef;
  next?: LinkRef;
  canonicalUrl?: string;
  /** RSS feed href, advertised with `<link rel="alternate">`. */
  feedHref?: string;
}

/** One search hit; `snippet` is HTML-escaped text with `<mark>` highlights. */
export interface SearchResultView {
  title: string;
  href: string;
  snippet: string;
  path?: string;
}

/** Everything {@link renderSearchPage} needs. */
export interface SearchPageInput extends ShellInput {
  basePath: string;
  searchAction: string;
  query: string;
  total: number;
  results: SearchResultView[];
  nav?: NavNode[];
}

/** Everything {@link renderNotFoundPage} needs. */
export interface NotFoundPageInput extends ShellInput {
  /** For members-only sites: where an anonymous reader signs in. */
  signInHref?: string;
  /** The site's sidebar, when the 404 is inside a site the reader may see. */
  nav?: NavNode[];
}

// Runs in <head> so a stored choice applies before first paint (no flash of the wrong
// mode). The button stays hidden unless this script runs, so no-JS readers never see a
// control that does nothing; they get the OS preference through CSS.
const TOGGLE_SCRIPT =
  "(()=>{const d=document.documentElement,k='folio-mode',m=matchMedia('(prefers-color-scheme: dark)');" +
  "try{const s=localStorage.getItem(k);if(s==='dark'||s==='light')d.dataset.mode=s}catch{}" +
  "const cur=()=>d.dataset.mode||(m.matches?'dark':'light');" +
  "addEventListener('DOMContentLoaded',()=>{const b=document.querySelector('[data-folio-mode-toggle]');if(!b)return;" +
  "const sync=()=>b.setAttribute('aria-pressed',String(cur()==='dark'));b.hidden=false;sync();" +
  "m.addEventListener('change',sync);b.addEventListener('click',()=>{const n=cur()==='dark'?'light':'dark';" +
  'd.dataset.mode=n;try{localStorage.setItem(k,n)}catch{}sync()})})})()';

// Runs at the end of <body>, so the elements it enhances exist. Without it a page keeps
// its no-JS form: code blocks carry only their language label, and "Menu" is a link to
// the navigation further down.
const SITE_SCRIPT =
  '(()=>{const q=(s)=>[...document.querySelectorAll(s)];' +
  // Tab groups (MkDocs content tabs, Docusaurus <Tabs>): a tablist over stacked panels.
  TABS_SCRIPT +
  // Copy buttons: the clipboard API where the page is a secure context, else a selection.
  "q('.code-block').forEach((f)=>{const c=f.querySelector('pre code');if(!c)return;" +
  "const b=document.createElement('button');b.type='button';b.className='code-copy';b.textContent='Copy';" +
  "const done=(t)=>{b.textContent=t;setTimeout(()=>{b.textContent='Copy'},2000)};" +
  "b.addEventListener('click',()=>{const t=c.textContent||'';" +
  'const old=()=>{const r=document.createRange();r.selectNodeContents(c);const s=getSelection();' +
  "s.removeAllRanges();s.addRange(r);const ok=document.execCommand('copy');s.removeAllRanges();done(ok?'Copied':'Press Ctrl+C')};" +
  "if(navigator.clipboard&&isSecureContext)navigator.clipboard.writeText(t).then(()=>done('Copied'),old);else old()});" +
  'f.prepend(b)});' +
  // The narrow-screen drawer: the Menu button opens the page list over the page.
  "const b=document.querySelector('[data-folio-nav-toggle]'),n=document.getElementById('site-nav');if(!b||!n)return;" +
  "const j=document.querySelector('.nav-jump');if(j)j.hidden=true;b.hidden=false;n.dataset.drawer='';" +
  "const set=(o,back)=>{n.classList.toggle('open',o);b.setAttribute('aria-expanded',String(o));" +
  "if(o){const a=n.querySelector('[aria-current=page]')||n.querySelector('a,summary');(a||n).focus()}else if(back)b.focus()};" +
  "b.addEventListener('click',()=>set(!n.classList.contains('open'),false));" +
  "document.addEventListener('keydown',(e)=>{if(e.key==='Escape'&&n.classList.contains('open')){e.preventDefault();set(false,true)}});" +
  "n.addEventListener('focusout',(e)=>{const t=e.relatedTarget;if(t&&n.classList.contains('open')&&!n.contains(t)&&t!==b)set(false,false)});" +
  "document.addEventListener('click',(e)=>{if(n.classList.contains('open')&&!n.contains(e.target)&&!b.contains(e.target))set(false,false)})})()";

// Made on first use: creating any Intl formatter maps about 5 MB of ICU data into memory,
// which a server that has rendered no page need not hold.
let dateFormat: Intl.DateTimeFormat | undefined;
const formatDate = (date: Date): string =>
  (dateFormat ??= new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' })).format(date);

function rootHref(basePath: string | undefined): string {
  if (!basePath) return './';
  return basePath.endsWith('/') || basePath.endsWith('.html') ? basePath : `${basePath}/`;
}

function iconType(href: string): string {
  if (/\.png$/i.test(href)) return 'image/png';
  if (/\.ico$/i.test(href)) return 'image/x-icon';
  return 'image/svg+xml';
}

function nonceAttr(nonce: string | undefined): string {
  return nonce ? ` nonce="${escapeHtml(nonce)}"` : '';
}

function documentShell(
  input: ShellInput,
  head: {
    title: string;
    description?: string;
    canonicalUrl?: string;
    feedHref?: string;
    noindex?: boolean;
    hasNav?: boolean;
  },
  body: string,
): string {
  const toggle = themeSupportsToggle(input.theme);
  const meta = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(head.title)}</title>`,
    head.description ? `<meta name="description" content="${escapeHtml(head.description)}">` : '',
    head.noindex ? '<meta name="robots" content="noindex">' : '',
    head.canonicalUrl ? `<link rel="canonical" href="${safeHref(head.canonicalUrl)}">` : '',
    `<meta property="og:title" content="${escapeHtml(head.title)}">`,
    `<meta property="og:site_name" content="${escapeHtml(input.siteTitle)}">`,
    head.description ? `<meta property="og:description" content="${escapeHtml(head.description)}">` : '',
    `<meta name="color-scheme" content="${toggle ? 'light dark' : input.theme === 'dark' ? 'dark' : 'light'}">`,
    '<meta name="generator" content="Folio">',
    head.feedHref
      ? `<link rel="alternate" type="application/rss+xml" title="${escapeHtml(input.siteTitle)}" href="${safeHref(head.feedHref)}">`
      : '',
    input.iconHref
      ? `<link rel="icon" type="${iconType(input.iconHref)}" href="${safeHref(input.iconHref)}">`
      : '',
    input.cssHref
      ? `<link rel="stylesheet" href="${safeHref(input.cssHref)}">`
      : `<style${nonceAttr(input.nonce)}>${themeCss(input.theme)}</style>`,
    ...(input.stylesheets ?? []).map((href) => `<link rel="stylesheet" href="${safeHref(href)}">`),
    toggle ? `<script${nonceAttr(input.nonce)}>${TOGGLE_SCRIPT}</script>` : '',
  ];
  const scripts = (input.scripts ?? [])
    .map((src) => `<script src="${safeHref(src)}" defer${nonceAttr(input.nonce)}></script>\n`)
    .join('');
  return (
    `<!doctype html>\n<html lang="${escapeHtml(input.lang ?? 'en')}">\n<head>\n${meta.filter(Boolean).join('\n')}\n</head>\n` +
    `<body>\n<a class="skip-link" href="#content">Skip to content</a>\n${siteHeader(input, toggle, head.hasNav ?? false)}\n${body}\n` +
    `<script${nonceAttr(input.nonce)}>${SITE_SCRIPT}</script>\n` +
    (input.palette ? `<script${nonceAttr(input.nonce)}>${PALETTE_LOADER}</script>\n` : '') +
    `${scripts}</body>\n</html>\n`
  );
}

function siteHeader(input: ShellInput, toggle: boolean, hasNav: boolean): string {
  const versions = input.versions?.length
    ? `<details class="versions"><summary><span class="visually-hidden">Version: </span>${escapeHtml(
        input.versions.find((v) => v.current)?.name ?? input.versions[0]?.name,
      )}</summary><ul>${input.versions
        .map(
          (v) =>
            `<li><a href="${safeHref(v.href)}"${v.current ? ' aria-current="true"' : ''}>${escapeHtml(v.name)}</a></li>`,
        )
        .join('')}</ul></details>`
    : '';
  const search = input.searchAction
    ? `<form class="site-search" role="search" aria-label="Site" action="${safeHref(input.searchAction)}" method="get"${input.palette ? paletteAttributes(input.palette) : ''}>` +
      '<label class="visually-hidden" for="site-search-q">Search the documentation</label>' +
      '<input id="site-search-q" type="search" name="q" placeholder="Search…" autocomplete="off" enterkeyhint="search">' +
      '<button type="submit">Search</button></form>'
    : input.palette
      ? paletteButton(input.palette)
      : '';
  // The link serves readers without JavaScript; the site script swaps in the drawer button.
  const menu = hasNav
    ? '<a class="nav-jump" href="#site-nav">Menu</a>' +
      '<button type="button" class="nav-toggle" data-folio-nav-toggle aria-expanded="false" aria-controls="site-nav" hidden>Menu</button>'
    : '';
  const modeButton = toggle
    ? '<button type="button" class="mode-toggle" data-folio-mode-toggle aria-pressed="false" title="Dark mode" hidden>' +
      '<span aria-hidden="true">◐</span><span class="visually-hidden">Dark mode</span></button>'
    : '';
  return (
    `<header class="site-header"><div class="site-header-inner">` +
    `<a class="site-title" href="${safeHref(rootHref(input.basePath))}">${escapeHtml(input.siteTitle)}</a>` +
    `${versions}${search}${menu}${modeButton}</div></header>`
  );
}

function containsActive(nodes: NavNode[] | undefined): boolean {
  return (nodes ?? []).some((n) => n.active || containsActive(n.children));
}

function countNodes(nodes: NavNode[] | undefined): number {
  return (nodes ?? []).reduce((sum, n) => sum + 1 + countNodes(n.children), 0);
}

function navLink(node: NavNode): string {
  if (!node.href) return `<span>${escapeHtml(node.title)}</span>`;
  const current = node.active ? ' aria-current="page"' : '';
  return `<a href="${safeHref(node.href)}"${current}>${escapeHtml(node.title)}</a>`;
}

// Groups are <details> so they collapse without JavaScript. A summary is a button to
// assistive technology, so it holds no link (that would be nested interactive content):
// a folder with its own page shows that page as the group's title link, with the summary
// beside it as the toggle, instead of listing the page a second time inside the group.
function navList(nodes: NavNode[], openAll: boolean): string {
  const items = nodes.map((node) => {
    if (!node.children?.length) return `<li>${navLink(node)}</li>`;
    const open = openAll || node.active || containsActive(node.children) ? ' open' : '';
    const inner = navList(node.children, openAll);
    if (!node.href) {
      return `<li><details${open}><summary><span>${escapeHtml(node.title)}</span></summary>${inner}</details></li>`;
    }
    const toggle = `<summary aria-label="Pages in ${escapeHtml(node.title)}"></summary>`;
    return `<li class="nav-group">${navLink(node)}<details${open}>${toggle}${inner}</details></li>`;
  });
  return `<ul>${items.join('')}</ul>`;
}

function siteNav(nav: NavNode[] | undefined): string {
  if (!nav?.length) return '';
  return `<nav id="site-nav" class="site-nav" aria-label="Pages">${navList(nav, countNodes(nav) <= 40)}</nav>`;
}

/** The page's contents as a list; null when too short to be worth one. */
function tocItems(toc: TocEntry[]): string | null {
  const items = toc
    .filter((e) => e.level === 2 || e.level === 3)
    .map((e) => `<li class="toc-l${e.level}"><a href="#${escapeHtml(e.id)}">${escapeHtml(e.text)}</a></li>`);
  return items.length < 2 ? null : `<ol>${items.join('')}</ol>`;
}

function breadcrumbTrail(crumbs: LinkRef[], current: string): string {
  if (!crumbs.length) return '';
  const items = crumbs.map((c) => `<li><a href="${safeHref(c.href)}">${escapeHtml(c.title)}</a></li>`);
  items.push(`<li aria-current="page">${escapeHtml(current)}</li>`);
  return `<nav class="breadcrumbs" aria-label="Breadcrumb"><ol>${items.join('')}</ol></nav>`;
}

function pager(prev: LinkRef | undefined, next: LinkRef | undefined): string {
  if (!prev && !next) return '';
  const link = (ref: LinkRef, rel: 'prev' | 'next', label: string): string =>
    `<a class="pager-${rel}" rel="${rel}" href="${safeHref(ref.href)}"><span class="pager-label">${label}</span>${escapeHtml(ref.title)}</a>`;
  return (
    '<nav class="pager" aria-label="Previous and next pages">' +
    (prev ? link(prev, 'prev', 'Previous') : '') +
    (next ? link(next, 'next', 'Next') : '') +
    '</nav>'
  );
}

function updated(value: string | Date | undefined, by?: string, editHref?: string): string {
  const date = value ? (value instanceof Date ? value : new Date(value)) : null;
  const when =
    date && !Number.isNaN(date.getTime())
      ? `<p class="last-updated">Last updated <time datetime="${escapeHtml(date.toISOString())}">${escapeHtml(formatDate(date))}</time>` +
        `${by ? ` by <span class="last-author">${escapeHtml(by)}</span>` : ''}</p>`
      : '';
  const edit = editHref ? `<p class="edit-page"><a href="${safeHref(editHref)}">Edit this page</a></p>` : '';
  return when || edit ? `<footer class="article-footer">${edit}${when}</footer>` : '';
}

function siteFooter(siteTitle: string, description?: string, extra = ''): string {
  const about = description ? `<p>${escapeHtml(description)}</p>` : `<p>${escapeHtml(siteTitle)}</p>`;
  return `<footer class="site-footer"><div class="site-footer-inner">${about}${extra}<p>Published with Folio</p></div></footer>`;
}

/** A body's first element when it is an h1, with the permalink wrapper markdown.ts puts around headings. */
const LEADING_H1 =
  /^\s*(?:<div class="md-heading">\s*<h1[\s>][\s\S]*?<\/h1>[\s\S]*?<\/div>|<h1[\s>][\s\S]*?<\/h1>)/;

/** The two parts of a page's article the writer controls: its header (title, lede) and its prose. */
export interface ArticleParts {
  header: string;
  prose: string;
}

/**
 * A page's article header and prose as the site shows them; the editor's preview shows
 * exactly these. The body's own leading h1 is the title, so it moves into the header above
 * the description; otherwise the layout supplies one.
 */
export function articleParts(
  page: Pick<SitePageInput['page'], 'title' | 'description' | 'html'>,
): ArticleParts {
  const leading = LEADING_H1.exec(page.html);
  const html = leading ? page.html.slice(leading[0].length) : page.html;
  const header =
    (leading ? leading[0].trim() : `<h1>${escapeHtml(page.title)}</h1>`) +
    (page.description ? `<p class="lede">${escapeHtml(page.description)}</p>` : '');
  return {
    header: `<header class="article-header">${header}</header>`,
    prose: `<div class="prose">\n${html}\n</div>`,
  };
}

/** A complete published page: header, navigation, breadcrumbs, article, table of contents, pager, footer. */
export function renderSitePage(input: SitePageInput): string {
  const { page } = input;
  const article = articleParts(page);
  // Shown twice (inline on narrow screens, aside on wide ones, one hidden by CSS), but only
  // the aside is a navigation landmark, so assistive technology lists "On this page" once.
  const toc = tocItems(page.toc);
  const main =
    `<main id="content" class="page" tabindex="-1">${breadcrumbTrail(input.breadcrumbs, page.title)}` +
    `<article class="article">${article.header}` +
    (toc
      ? `<details class="toc-inline"><summary>On this page</summary><div class="toc">${toc}</div></details>`
      : '') +
    `${article.prose}${updated(page.updatedAt, page.updatedBy, page.editHref)}</article>${pager(input.prev, input.next)}</main>`;
  const aside = toc
    ? `<aside class="toc-aside"><p class="toc-title" aria-hidden="true">On this page</p><nav class="toc" aria-label="On this page">${toc}</nav></aside>`
    : '';
  const body = `<div class="site-body">${main}${aside}${siteNav(input.nav)}</div>\n${siteFooter(input.siteTitle, input.siteDescription, input.footerHtml)}`;
  const title = page.title === input.siteTitle ? page.title : `${page.title} · ${input.siteTitle}`;
  return documentShell(
    input,
    {
      title,
      description: page.description ?? input.siteDescription,
      canonicalUrl: input.canonicalUrl,
      feedHref: input.feedHref,
      hasNav: input.nav.length > 0,
    },
    body,
  );
}

/** The search results page; the query is echoed in the search box and the summary. */
export function renderSearchPage(input: SearchPageInput): string {
  // Matches are counted up to a cap; reaching it means "at least that many".
  const count =
    input.total >= SEARCH_TOTAL_CAP
      ? `${SEARCH_TOTAL_CAP.toLocaleString('en')}+ results`
      : `${input.total} result${input.total === 1 ? '' : 's'}`;
  const summary = input.query
    ? `<p class="search-summary" role="status">${count} for “${escapeHtml(input.query)}”</p>`
    : '<p class="search-summary" role="status">Type a word or phrase to search.</p>';
  const results = input.results
    .map(
      (r) =>
        `<li><h2><a href="${safeHref(r.href)}">${escapeHtml(r.title)}</a></h2>` +
        (r.path ? `<p class="search-path">${escapeHtml(r.path)}</p>` : '') +
        `<p>${escapeSnippet(r.snippet)}</p></li>`,
    )
    .join('');
  const main =
    `<main id="content" class="page" tabindex="-1"><h1>Search</h1>` +
    `<form class="search-form" role="search" aria-label="Search results" action="${safeHref(input.searchAction)}" method="get">` +
    `<label class="visually-hidden" for="search-q">Search the documentation</label>` +
    `<input id="search-q" type="search" name="q" value="${escapeHtml(input.query)}"><button type="submit">Search</button></form>` +
    `${summary}${results ? `<ol class="search-results">${results}</ol>` : ''}</main>`;
  const body = `<div class="site-body">${main}${siteNav(input.nav)}</div>\n${siteFooter(input.siteTitle, undefined, input.footerHtml)}`;
  const title = input.query ? `Search: ${input.query} · ${input.siteTitle}` : `Search · ${input.siteTitle}`;
  return documentShell(input, { title, noindex: true, hasNav: Boolean(input.nav?.length) }, body);
}

/** The 404 page; a members-only site adds a sign-in link. */
export function renderNotFoundPage(input: NotFoundPageInput): string {
  const signIn = input.signInHref
    ? `<p>This documentation may be for members only. <a href="${safeHref(input.signInHref)}">Sign in</a> to read it.</p>`
    : '';
  const home = input.basePath
    ? `<p><a href="${safeHref(rootHref(input.basePath))}">Go to the home page</a></p>`
    : '';
  const main =
    `<main id="content" class="status-page" tabindex="-1"><p class="status-code" aria-hidden="true">404</p>` +
    `<h1>Page not found</h1><p>The page you are looking for does not exist or has moved.</p>${signIn}${home}</main>`;
  const hasNav = Boolean(input.nav?.length);
  const body = `${hasNav ? `<div class="site-body">${main}${siteNav(input.nav)}</div>` : main}\n${siteFooter(input.siteTitle)}`;
  return documentShell(input, { title: `Page not found · ${input.siteTitle}`, noindex: true, hasNav }, body);
}
