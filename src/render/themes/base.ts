/**
 * The layout CSS every theme shares, plus the palette type themes fill in. Themes only
 * set custom properties and add a few rules of their own, so the layout (and its
 * accessibility fixes) lives in one place. System font stacks only: the site and its
 * static export must work offline and load no web fonts.
 */

/** Colours of one light or dark variant; every text/background pair is WCAG AA (themes.test.ts). */
export interface Palette {
  bg: string;
  fg: string;
  /** Secondary text: breadcrumbs, dates, captions. */
  muted: string;
  link: string;
  /** Hairlines between regions; decorative, so not held to text contrast. */
  border: string;
  /** Sidebar and subtle panels. */
  surface: string;
  /** Focus rings and the active-page marker (>= 3:1 against bg). */
  accent: string;
  headerBg: string;
  headerFg: string;
  codeBg: string;
  codeFg: string;
  markBg: string;
  markFg: string;
  /** Callout colours; titles use them over a 10% tint of themselves. */
  note: string;
  tip: string;
  important: string;
  warning: string;
  caution: string;
  /** highlight.js token colours, on codeBg. */
  hlKeyword: string;
  hlString: string;
  hlComment: string;
  hlNumber: string;
  hlTitle: string;
  hlAttr: string;
  hlBuiltIn: string;
  hlMeta: string;
  hlAddition: string;
  hlDeletion: string;
}

/** One theme: its palettes, type and the few rules that give it its own character. */
export interface ThemeDefinition {
  label: string;
  /** Whether `palette` is a light or a dark design (sets `color-scheme`). */
  scheme: 'light' | 'dark';
  palette: Palette;
  /** Alternate palette for `[data-mode=dark]` / `prefers-color-scheme: dark`; enables the toggle. */
  darkPalette?: Palette;
  fonts: { body: string; heading: string; mono?: string };
  /** Corner radius, e.g. `6px`. */
  radius: string;
  /** Extra CSS appended after the shared layout. */
  css: string;
}

/** System font stacks (modernfontstacks.com), no downloads. */
export const FONT_STACKS = {
  system:
    "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', 'Noto Sans', 'Liberation Sans', Arial, sans-serif",
  transitional: "Charter, 'Bitstream Charter', 'Sitka Text', Cambria, serif",
  oldStyle: "'Iowan Old Style', 'Palatino Linotype', 'URW Palladio L', P052, serif",
  humanist: "Seravek, 'Gill Sans Nova', Ubuntu, Calibri, 'DejaVu Sans', source-sans-pro, sans-serif",
  geometricHumanist: "Avenir, Montserrat, Corbel, 'URW Gothic', source-sans-pro, sans-serif",
  neoGrotesque: "Inter, Roboto, 'Helvetica Neue', 'Arial Nova', 'Nimbus Sans', Arial, sans-serif",
  mono: "ui-monospace, 'Cascadia Code', 'Source Code Pro', Menlo, Consolas, 'DejaVu Sans Mono', monospace",
} as const;

const PALETTE_VARS: Array<[keyof Palette, string]> = [
  ['bg', '--bg'],
  ['fg', '--fg'],
  ['muted', '--muted'],
  ['link', '--link'],
  ['border', '--border'],
  ['surface', '--surface'],
  ['accent', '--accent'],
  ['headerBg', '--header-bg'],
  ['headerFg', '--header-fg'],
  ['codeBg', '--code-bg'],
  ['codeFg', '--code-fg'],
  ['markBg', '--mark-bg'],
  ['markFg', '--mark-fg'],
  ['note', '--note'],
  ['tip', '--tip'],
  ['important', '--important'],
  ['warning', '--warning'],
  ['caution', '--caution'],
  ['hlKeyword', '--hl-keyword'],
  ['hlString', '--hl-string'],
  ['hlComment', '--hl-comment'],
  ['hlNumber', '--hl-number'],
  ['hlTitle', '--hl-title'],
  ['hlAttr', '--hl-attr'],
  ['hlBuiltIn', '--hl-built-in'],
  ['hlMeta', '--hl-meta'],
  ['hlAddition', '--hl-addition'],
  ['hlDeletion', '--hl-deletion'],
];

/** Custom-property declarations for a palette (`--bg:#fff;…`). */
export function paletteDeclarations(palette: Palette, scheme: 'light' | 'dark', important = ''): string {
  const decls = PALETTE_VARS.map(([key, name]) => `${name}:${palette[key]}${important}`);
  return `color-scheme:${scheme};${decls.join(';')}`;
}

/** Printing always uses dark ink on white, whatever the theme or mode. */
export const PRINT_PALETTE: Palette = {
  ...{
    bg: '#ffffff',
    fg: '#000000',
    muted: '#444444',
    link: '#000000',
    border: '#999999',
    surface: '#ffffff',
  },
  ...{ accent: '#000000', headerBg: '#ffffff', headerFg: '#000000', codeBg: '#ffffff', codeFg: '#000000' },
  ...{ markBg: '#eeeeee', markFg: '#000000', note: '#000000', tip: '#000000', important: '#000000' },
  ...{
    warning: '#000000',
    caution: '#000000',
    hlKeyword: '#000000',
    hlString: '#333333',
    hlComment: '#555555',
  },
  ...{ hlNumber: '#000000', hlTitle: '#000000', hlAttr: '#333333', hlBuiltIn: '#000000', hlMeta: '#555555' },
  ...{ hlAddition: '#000000', hlDeletion: '#000000' },
};

/** The shared responsive layout: header, sidebar, article, table of contents, footer, print. */
export const BASE_CSS = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%;--header-h:3.5rem;--measure:72ch}
@media (prefers-reduced-motion:no-preference){html{scroll-behavior:smooth}}
body{margin:0;background:var(--bg);color:var(--fg);font:1.0625rem/1.7 var(--font-body);font-kerning:normal;overflow-wrap:break-word}
a{color:var(--link);text-underline-offset:.18em;text-decoration-thickness:.06em}
a:hover{text-decoration-thickness:.12em}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px;border-radius:2px}
.visually-hidden{position:absolute!important;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
.skip-link{position:absolute;left:1rem;top:-4rem;z-index:20;padding:.5rem 1rem;background:var(--bg);color:var(--link);border:2px solid var(--accent);border-radius:var(--radius)}
.skip-link:focus{top:.5rem}
.site-header{position:sticky;top:0;z-index:10;background:var(--header-bg);color:var(--header-fg);border-bottom:1px solid var(--border)}
.site-header-inner{display:flex;align-items:center;gap:1rem;max-width:92rem;min-height:var(--header-h);margin:0 auto;padding:.5rem 1.25rem}
.site-title{color:var(--header-fg);font:700 1.125rem/1.2 var(--font-heading);text-decoration:none;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;max-width:40vw}
.site-header a{color:var(--header-fg)}
.site-search{display:flex;gap:.375rem;margin-left:auto;flex:0 1 22rem;min-width:0}
.site-search input,.site-search button,.search-form input,.search-form button,.mode-toggle{font:inherit;font-size:.9375rem;color:var(--fg);background:var(--bg);border:1px solid var(--muted);border-radius:var(--radius);padding:.375rem .625rem;min-height:2.25rem}
.site-search input{flex:1;min-width:0}
.site-search button,.search-form button{cursor:pointer;background:var(--surface)}
.mode-toggle{cursor:pointer;color:var(--header-fg);background:transparent;border-color:currentColor;line-height:1}
.mode-toggle[hidden]{display:none}
/* Desktop: the jump to the page list (after the article in source order) appears on focus. */
.nav-jump{white-space:nowrap}
.nav-jump:not(:focus){position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.nav-toggle{display:none}
.versions{position:relative;font-size:.875rem}
.versions summary{cursor:pointer;padding:.25rem .5rem;border:1px solid currentColor;border-radius:var(--radius);list-style:none}
.versions summary::-webkit-details-marker{display:none}
.versions summary::after{content:" \\25BE"}
.versions ul{position:absolute;top:calc(100% + .25rem);left:0;z-index:11;min-width:12rem;margin:0;padding:.375rem;list-style:none;background:var(--bg);border:1px solid var(--border);border-radius:var(--radius);box-shadow:0 .5rem 1.5rem rgb(0 0 0/.18)}
.versions li a{display:block;padding:.25rem .5rem;color:var(--link);border-radius:var(--radius)}
.versions a[aria-current]{font-weight:700}
.site-body{display:grid;grid-template-columns:15.5rem minmax(0,1fr) 14rem;grid-template-areas:"nav main toc";gap:2.5rem;max-width:92rem;margin:0 auto;padding:0 1.25rem}
.page{grid-area:main;min-width:0;padding:1.5rem 0 3rem}
.page:focus{outline:none}
.site-nav{grid-area:nav;position:sticky;top:calc(var(--header-h) + 1px);align-self:start;max-height:calc(100vh - var(--header-h) - 1px);overflow-y:auto;padding:1.5rem .75rem 2rem 0;font-size:.9375rem;line-height:1.45}
.site-nav ul{list-style:none;margin:0;padding:0}
.site-nav ul ul{margin:.125rem 0 .25rem .625rem;padding-left:.5rem;border-left:1px solid var(--border)}
.site-nav a{display:block;padding:.3rem .5rem;color:var(--fg);text-decoration:none;border-radius:var(--radius)}
.site-nav a:hover{background:var(--surface);text-decoration:underline}
.site-nav a[aria-current=page]{font-weight:650;color:var(--link);background:var(--surface);box-shadow:inset 3px 0 0 var(--accent)}
.site-nav summary{cursor:pointer;border-radius:var(--radius);padding-left:.25rem}
.site-nav li:not(.nav-group)>details>summary{display:flex;align-items:center;justify-content:space-between;list-style:none}
.site-nav li:not(.nav-group)>details>summary::-webkit-details-marker{display:none}
.site-nav li:not(.nav-group)>details>summary::after{content:"\\25B8";flex:none;width:2rem;text-align:center;transition:transform .15s}
.site-nav li:not(.nav-group)>details[open]>summary::after{transform:rotate(90deg)}
.site-nav summary>a{display:inline-block}
.site-nav summary>span{display:inline-block;padding:.3rem .25rem;font-weight:600}
.site-nav .nav-group{position:relative}
.site-nav .nav-group>a{padding-right:2.25rem;font-weight:600}
.site-nav .nav-group>details>summary{position:absolute;top:0;right:0;width:2rem;height:2rem;padding:0;display:flex;align-items:center;justify-content:center;list-style:none}
.site-nav .nav-group>details>summary::-webkit-details-marker{display:none}
.site-nav .nav-group>details>summary::before{content:"\\25B8";transition:transform .15s}
.site-nav .nav-group>details[open]>summary::before{transform:rotate(90deg)}
.toc-aside{grid-area:toc;position:sticky;top:calc(var(--header-h) + 1px);align-self:start;max-height:calc(100vh - var(--header-h) - 1px);overflow-y:auto;padding:1.75rem 0 2rem;font-size:.875rem;line-height:1.45}
.toc-title{margin:0 0 .5rem;font:700 .75rem/1.4 var(--font-body);letter-spacing:.06em;text-transform:uppercase;color:var(--muted)}
.toc ol{list-style:none;margin:0;padding:0}
.toc li{margin:0}
.toc a{display:block;padding:.2rem 0 .2rem .75rem;color:var(--muted);text-decoration:none;border-left:2px solid var(--border)}
.toc a:hover{color:var(--link);border-left-color:var(--accent)}
.toc .toc-l3 a{padding-left:1.5rem}
.toc-inline{display:none;margin:0 0 1.5rem;padding:.5rem .875rem;background:var(--surface);border:1px solid var(--border);border-radius:var(--radius);font-size:.9375rem}
.toc-inline summary{cursor:pointer;font-weight:600}
.toc-inline .toc a{border-left:0;padding-left:0}
.toc-inline .toc .toc-l3 a{padding-left:1rem}
.breadcrumbs ol{display:flex;flex-wrap:wrap;gap:.25rem;list-style:none;margin:0 0 1rem;padding:0;font-size:.875rem;color:var(--muted)}
/* The separator ends the item before it, so a trail that wraps breaks between items and no line starts with "/". */
.breadcrumbs li{min-width:0;overflow-wrap:anywhere}
.breadcrumbs li:not(:last-child)::after{content:"/";content:"/"/"";margin-left:.25rem}
/* Crumbs sit in one row: the prose rule that spaces list items apart would push all but the first down. */
.breadcrumbs li+li{margin-top:0}
.breadcrumbs a{color:var(--muted)}
.article-header h1,.prose h1{margin:0 0 .5rem}
.lede{margin:0 0 1.5rem;font-size:1.175rem;color:var(--muted)}
.prose{max-width:var(--measure)}
.prose>:first-child,.prose>.md-heading:first-child>h1{margin-top:0}
h1,h2,h3,h4,h5,h6{font-family:var(--font-heading);line-height:1.25;font-weight:700;scroll-margin-top:calc(var(--header-h) + 1rem)}
h1{font-size:2.125rem;letter-spacing:-.01em}
h2{font-size:1.5rem;margin:2.25rem 0 .75rem}
h3{font-size:1.25rem;margin:1.75rem 0 .5rem}
h4,h5,h6{font-size:1.0625rem;margin:1.5rem 0 .5rem}
.md-heading{display:flex;align-items:baseline;gap:.5rem}
.md-heading>.header-anchor{opacity:0;color:var(--muted);text-decoration:none;font-weight:400}
.md-heading:hover>.header-anchor,.header-anchor:focus{opacity:1}
@media (hover:none){.md-heading>.header-anchor{opacity:.7}}
p,ul,ol,dl,blockquote,pre,table,figure,details{margin:0 0 1.125rem}
dt{font-weight:650}dd{margin:0 0 .5rem 1.5rem}
li>ul,li>ol{margin-bottom:0}
li+li{margin-top:.25rem}
img,video{max-width:100%;height:auto}
hr{border:0;border-top:1px solid var(--border);margin:2rem 0}
blockquote{margin-left:0;padding:0 1rem;border-left:4px solid var(--border);color:var(--muted)}
mark{background:var(--mark-bg);color:var(--mark-fg);padding:0 .1em;border-radius:2px}
kbd{font:.85em var(--font-mono);padding:.1em .4em;border:1px solid var(--muted);border-bottom-width:2px;border-radius:4px;background:var(--surface)}
code,pre,samp{font-family:var(--font-mono);font-size:.875em}
:not(pre)>code{background:var(--code-bg);color:var(--code-fg);padding:.12em .35em;border-radius:4px;border:1px solid var(--border)}
pre{background:var(--code-bg);color:var(--code-fg);padding:1rem 1.125rem;overflow-x:auto;line-height:1.55;border:1px solid var(--border);border-radius:var(--radius);tab-size:2}
pre code{font-size:inherit;background:none;border:0;padding:0}
.code-block{position:relative;margin:0 0 1.125rem}
.code-block>pre{margin:0}
.code-label{font:600 .75rem/1.5 var(--font-mono);color:var(--code-fg);background:var(--code-bg);padding:.375rem 1.125rem;border:1px solid var(--border);border-bottom:0;border-radius:var(--radius) var(--radius) 0 0}
.code-label+pre{border-top-left-radius:0;border-top-right-radius:0;border-top-style:dashed}
.code-copy{position:absolute;top:.25rem;right:.25rem;z-index:1;font:inherit;font-size:.75rem;line-height:1.5;color:var(--fg);background:var(--bg);border:1px solid var(--muted);border-radius:var(--radius);padding:.0625rem .5rem;cursor:pointer}
.code-copy:hover{border-color:var(--accent)}
.table-wrap{overflow-x:auto;margin:0 0 1.25rem}
.table-wrap>table{margin:0}
table{border-collapse:collapse;font-size:.9375rem;min-width:50%}
th,td{padding:.5rem .75rem;border:1px solid var(--border);text-align:left;vertical-align:top}
th{background:var(--surface);font-weight:650}
.align-left{text-align:left}.align-center{text-align:center}.align-right{text-align:right}
details>summary{cursor:pointer}
.contains-task-list{list-style:none;padding-left:1.5rem}
.task-list-item-checkbox{margin:0 .5em 0 -1.5em;width:1em;height:1em;vertical-align:-.125em;accent-color:var(--accent)}
.callout{--c:var(--note);margin:1.5rem 0;padding:.875rem 1.125rem;border-left:4px solid var(--c);border-radius:var(--radius);background:var(--surface);background:color-mix(in srgb,var(--c) 10%,var(--bg))}
.callout-title{margin:0 0 .375rem;color:var(--c);font-weight:700}
.callout>:last-child{margin-bottom:0}
.callout-tip{--c:var(--tip)}.callout-important{--c:var(--important)}.callout-warning{--c:var(--warning)}
.callout-caution,.callout-danger{--c:var(--caution)}
.callout-info,.callout-abstract,.callout-quote,.callout-example{--c:var(--note)}.callout-success{--c:var(--tip)}
.callout-question{--c:var(--important)}.callout-failure,.callout-bug{--c:var(--caution)}
details.callout>summary.callout-title{margin:0}details.callout[open]>summary.callout-title{margin-bottom:.375rem}
.tabs{margin:1.5rem 0;border:1px solid var(--border);border-radius:var(--radius);padding:0 1rem}
.tab-label{margin:.75rem 0 .25rem;font-weight:650;color:var(--muted)}
.tab-list{display:flex;flex-wrap:wrap;gap:.25rem;border-bottom:1px solid var(--border);margin:0 -1rem;padding:0 .5rem}
.tab-list>[role=tab]{font:inherit;background:none;border:0;border-bottom:2px solid transparent;padding:.5rem .75rem;color:var(--muted);cursor:pointer}
.tab-list>[role=tab][aria-selected=true]{color:var(--fg);border-bottom-color:var(--accent);font-weight:650}
.tab-list>[role=tab]:focus-visible{outline:2px solid var(--accent);outline-offset:-2px}
.tabs-ready>.tab-panel{padding-top:.75rem}.tab-panel>:last-child{margin-bottom:1rem}
.embed{margin:1.25rem 0;padding:.25rem 1rem;border-left:3px solid var(--border)}
.math-display{overflow-x:auto;margin:1rem 0;text-align:center}
.math-error{color:var(--caution)}
pre.mermaid{white-space:pre-wrap;padding:1rem;border:1px solid var(--border);border-radius:var(--radius);background:var(--surface)}
.mermaid-diagram{margin:1.5rem 0;overflow-x:auto;text-align:center}.mermaid-diagram>svg{max-width:100%;height:auto}
.wikilink-missing{color:var(--muted);text-decoration:underline dotted;cursor:help}
.footnotes-sep{margin-top:3rem}
.footnotes{font-size:.9375rem}
.footnote-item{scroll-margin-top:calc(var(--header-h) + 1rem)}
.footnote-ref a{text-decoration:none}
.hljs-keyword,.hljs-selector-tag,.hljs-literal,.hljs-doctag,.hljs-template-tag{color:var(--hl-keyword)}
.hljs-string,.hljs-regexp,.hljs-selector-attr,.hljs-selector-pseudo,.hljs-template-variable,.hljs-char.escape_{color:var(--hl-string)}
.hljs-comment,.hljs-quote{color:var(--hl-comment);font-style:italic}
.hljs-number,.hljs-symbol,.hljs-bullet,.hljs-link{color:var(--hl-number)}
.hljs-title,.hljs-section,.hljs-name,.hljs-selector-id,.hljs-selector-class{color:var(--hl-title)}
.hljs-attr,.hljs-attribute,.hljs-variable,.hljs-property,.hljs-params{color:var(--hl-attr)}
.hljs-built_in,.hljs-type,.hljs-title.class_{color:var(--hl-built-in)}
.hljs-meta,.hljs-meta .hljs-keyword,.hljs-subst{color:var(--hl-meta)}
.hljs-meta .hljs-string{color:var(--hl-string)}
.hljs-addition{color:var(--hl-addition)}.hljs-deletion{color:var(--hl-deletion)}
.hljs-emphasis{font-style:italic}.hljs-strong,.hljs-section{font-weight:700}
.article-footer{margin-top:2.5rem;font-size:.875rem;color:var(--muted)}
.pager{display:grid;grid-template-columns:1fr 1fr;gap:1rem;margin-top:2.5rem;max-width:var(--measure)}
.pager a{display:flex;flex-direction:column;gap:.125rem;padding:.75rem 1rem;border:1px solid var(--border);border-radius:var(--radius);text-decoration:none;font-weight:600}
.pager a:hover{border-color:var(--accent)}
.prose a.md-button{display:inline-block;margin:.25rem 0;padding:.5rem 1.25rem;border:2px solid var(--link);border-radius:var(--radius);color:var(--link);font-weight:650;text-decoration:none}
.prose a.md-button:hover{background:var(--surface)}
.prose a.md-button--primary,.prose a.md-button--primary:hover{background:var(--link);color:var(--bg)}
.prose img[align=left]{float:left;margin:0 1rem .5rem 0}.prose img[align=right]{float:right;margin:0 0 .5rem 1rem}
.pager-next{grid-column:2;text-align:right}
.pager-label{font-size:.8125rem;font-weight:400;color:var(--muted)}
.site-footer{border-top:1px solid var(--border);color:var(--muted);font-size:.875rem}
.site-footer-inner{max-width:92rem;margin:0 auto;padding:1.25rem;display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;justify-content:space-between}
.site-footer a{color:var(--muted)}
.consent{display:flex;flex-wrap:wrap;align-items:center;align-self:flex-start;gap:.375rem .5rem;margin:0 0 1.125rem}
.consent button{font:inherit;font-size:.8125rem;color:var(--fg);background:var(--surface);border:1px solid var(--border);border-radius:var(--radius);padding:.125rem .625rem;cursor:pointer}
.consent button:hover{border-color:var(--accent)}
.search-form{display:flex;gap:.5rem;margin:0 0 1.5rem;max-width:var(--measure)}
.search-form input{flex:1}
.search-summary{color:var(--muted)}
.search-results{list-style:none;margin:0;padding:0;max-width:var(--measure)}
.search-results li{padding:1rem 0;border-bottom:1px solid var(--border)}
.search-results h2{font-size:1.125rem;margin:0 0 .25rem}
.search-results p{margin:0}
.search-path{font-size:.8125rem;color:var(--muted)}
.status-page{max-width:36rem;margin:0 auto;padding:5rem 1.25rem;text-align:center}
.site-body>.status-page{grid-area:main;margin:0}
.status-code{font:700 4rem/1 var(--font-heading);color:var(--muted);margin:0}
@media (max-width:74.99rem){
.site-body{grid-template-columns:14.5rem minmax(0,1fr);grid-template-areas:"nav main";gap:2rem}
.toc-aside{display:none}.toc-inline{display:block}}
@media (max-width:47.99rem){
html{--header-h:auto}
.site-header{position:static}
.site-header-inner{flex-wrap:wrap;gap:.5rem .75rem;padding:.625rem 1rem}
.site-title{max-width:none;flex:1}
.site-search{order:5;flex:1 1 100%}
.nav-jump,.nav-jump:not(:focus){position:static;width:auto;height:auto;overflow:visible;clip:auto;display:inline-block}
.nav-jump[hidden]{display:none}
.nav-toggle:not([hidden]){display:inline-block;cursor:pointer;font:inherit;font-size:.9375rem;color:var(--header-fg);background:transparent;border:1px solid currentColor;border-radius:var(--radius);padding:.375rem .625rem;min-height:2.25rem}
.site-nav[data-drawer]:not(.open){display:none}
.site-nav[data-drawer].open{position:fixed;top:0;bottom:0;left:0;align-self:stretch;z-index:30;width:min(20rem,85vw);max-height:none;overflow-y:auto;padding:1.25rem 1rem 2rem;background:var(--bg);border:0;border-right:1px solid var(--border);box-shadow:0 0 0 100vmax rgb(0 0 0/.45)}
.site-body{display:block;padding:0 1rem}
.site-nav{position:static;max-height:none;border-top:1px solid var(--border);padding:1.5rem 0}
.pager{grid-template-columns:1fr}.pager-next{grid-column:1}
h1{font-size:1.75rem}}
@media print{
.site-header,.site-nav,.toc-aside,.toc-inline,.pager,.skip-link,.header-anchor,.mode-toggle,.code-copy,.site-search,.search-form,.consent{display:none!important}
body{font-size:11pt;line-height:1.5}
.site-body{display:block;max-width:none;padding:0}
.page{padding:0}
.prose{max-width:none}
.prose a[href^="http"]::after{content:" (" attr(href) ")";font-size:.85em;word-break:break-all}
pre{white-space:pre-wrap}
pre,blockquote,table,.callout,img,figure{break-inside:avoid}
h1,h2,h3,h4{break-after:avoid}}
`;
