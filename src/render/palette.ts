/**
 * The published site's search palette, page side: the small inline loader every page
 * carries and the files it loads on first open (palette.js and palette.css from
 * `site-assets/`; the static export adds its index, which palette.js searches). The loader opens the palette on
 * Ctrl/Cmd+K, on `/` outside a field, and from the header's search box; without
 * JavaScript that box stays a form that submits to the search results page.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { escapeHtml, safeHref } from './escape.js';

/** The files the palette needs, by the name they are served and exported under. */
export const PALETTE_FILES = ['palette.js', 'palette.css'] as const;
export type PaletteFile = (typeof PALETTE_FILES)[number];

/** Where the palette gets its results: the site's search.json, or the export's local index. */
export type PaletteSource = { endpoint: string; version?: string } | { index: string; root: string };

/** What a page needs to offer the palette: where its files are and where results come from. */
export interface PaletteInput {
  script: string;
  css: string;
  source: PaletteSource;
}

interface Asset {
  body: string;
  hash: string;
}

const assets = new Map<PaletteFile, Asset>();

/**
 * The directory of the palette's files: `site-assets/` beside the server bundle (dist/,
 * or dist/chunks/ one level down; scripts/build.mjs writes minified copies there), else
 * the sources beside this file.
 */
function assetDir(): string | null {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const candidate of [path.join(here, 'site-assets'), path.join(here, '..', 'site-assets')]) {
    if (existsSync(path.join(candidate, 'palette.js'))) return candidate;
  }
  return null;
}

function readAsset(name: PaletteFile): string {
  const dir = assetDir();
  if (dir && existsSync(path.join(dir, name))) return readFileSync(path.join(dir, name), 'utf8');
  throw new Error(`the site's ${name} is missing`);
}

/** A palette file's text and content hash, read once. */
export function paletteAsset(name: PaletteFile): Asset {
  let asset = assets.get(name);
  if (!asset) {
    const body = readAsset(name);
    asset = { body, hash: createHash('sha256').update(body).digest('hex').slice(0, 12) };
    assets.set(name, asset);
  }
  return asset;
}

/** A served file name with its hash (`palette-<hash>.js`), cacheable for a year. */
export function hashedPaletteName(name: PaletteFile): string {
  const dot = name.lastIndexOf('.');
  return `${name.slice(0, dot)}-${paletteAsset(name).hash}${name.slice(dot)}`;
}

/** The palette file a hashed name asks for, and whether the hash is the current one; null for others. */
export function paletteFileOf(served: string): { name: PaletteFile; current: boolean } | null {
  const m = /^(palette)-([0-9a-f]+)\.(js|css)$/.exec(served);
  if (!m) return null;
  const name = `${m[1]}.${m[3]}`;
  if (!(PALETTE_FILES as readonly string[]).includes(name)) return null;
  return { name: name as PaletteFile, current: m[2] === paletteAsset(name as PaletteFile).hash };
}

/** Data attributes carrying the palette's set-up, put on the header's search element. */
export function paletteAttributes(input: PaletteInput): string {
  const { source } = input;
  const data: Record<string, string | undefined> =
    'endpoint' in source
      ? { endpoint: source.endpoint, version: source.version }
      : { index: source.index, root: source.root };
  return (
    ` data-folio-search data-js="${safeHref(input.script)}" data-css="${safeHref(input.css)}"` +
    Object.entries(data)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => ` data-${k}="${escapeHtml(v!)}"`)
      .join('')
  );
}

/**
 * The export's stand-in for the search form: a button the loader reveals, since a static
 * export has no results page for a form to submit to.
 */
export function paletteButton(input: PaletteInput): string {
  return (
    `<button type="button" class="site-search-open"${paletteAttributes(input)} hidden>` +
    'Search <kbd aria-hidden="true">Ctrl K</kbd></button>'
  );
}

// Runs at the end of <body>. Loads the palette's stylesheet and scripts once (the
// export's index first), then opens it; the focused element gets focus
// back when it closes. Typing into the header's box or submitting it opens the palette
// with what was typed; a key combination with Ctrl, Alt or Meta other than Ctrl/Cmd+K is
// left to the browser.
export const PALETTE_LOADER =
  "(()=>{const c=document.querySelector('[data-folio-search]');if(!c)return;const d=c.dataset,n=document.currentScript&&document.currentScript.nonce;let p;" +
  "const add=(src)=>new Promise((ok,no)=>{const s=document.createElement('script');s.src=src;if(n)s.nonce=n;s.onload=ok;s.onerror=no;document.head.append(s)});" +
  "const load=()=>p||(p=(()=>{const l=document.createElement('link');l.rel='stylesheet';l.href=d.css;document.head.append(l);" +
  'const pre=d.index?add(d.index):Promise.resolve();return pre.then(()=>add(d.js))})());' +
  "const config=d.index?{root:d.root||''}:{endpoint:d.endpoint,version:d.version||''};" +
  'const open=(text)=>{const from=document.activeElement;load().then(()=>{window.FolioPalette.open({config,from,text})},()=>{p=null})};' +
  'const field=(t)=>t&&(t.isContentEditable||/^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));' +
  "document.addEventListener('keydown',(e)=>{if((e.ctrlKey||e.metaKey)&&!e.altKey&&e.key.toLowerCase()==='k'){e.preventDefault();open()}" +
  "else if(e.key==='/'&&!e.ctrlKey&&!e.metaKey&&!e.altKey&&!field(e.target)){e.preventDefault();open()}});" +
  "if(c.tagName==='BUTTON'){c.hidden=false;c.addEventListener('click',()=>open());return}" +
  "const i=c.querySelector('input');c.addEventListener('submit',(e)=>{e.preventDefault();open(i.value)});" +
  "if(i){let q='';i.addEventListener('click',()=>open(i.value));i.addEventListener('input',()=>{q+=i.value;i.value='';open(q)})}})()";
