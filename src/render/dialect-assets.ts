/**
 * The files the dialects need in the reader's browser, served by Folio itself (no CDN):
 * KaTeX's stylesheet and fonts for pages with math, the Mermaid library and Folio's small
 * loader for pages with diagrams. A page links them only when its body has math or a
 * diagram. URLs carry the package version, so they are cached as immutable.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

const versionOf = (pkg: string): string =>
  (JSON.parse(readFileSync(require.resolve(`${pkg}/package.json`), 'utf8')) as { version: string }).version;

let versions: { katex: string; mermaid: string } | undefined;
const version = () => (versions ??= { katex: versionOf('katex'), mermaid: versionOf('mermaid') });

/** Paths under a site root (`_assets/…`) of the stylesheet and scripts a page may need. */
export function dialectAssetPaths(): { katexCss: string; mermaidScripts: string[] } {
  const v = version();
  return {
    katexCss: `_assets/katex-${v.katex}/katex.min.css`,
    mermaidScripts: [
      `_assets/mermaid-${v.mermaid}/mermaid.min.js`,
      `_assets/mermaid-${v.mermaid}/folio-mermaid.js`,
    ],
  };
}

/** True when a rendered body has math (KaTeX's MathML) or a Mermaid diagram. */
export function bodyNeeds(html: string): { math: boolean; diagrams: boolean } {
  return { math: html.includes('class="katex'), diagrams: html.includes('<pre class="mermaid">') };
}

/**
 * Draws every `pre.mermaid` with the Mermaid library under the site's CSP: Mermaid sets
 * `style` attributes and adds `<style>` elements, which the policy refuses, so while it
 * draws, style attributes go through the CSSOM (which the policy allows), style
 * elements get this script's nonce, and markup Mermaid parses (its sanitiser uses
 * DOMParser, whose documents the policy also covers) has its style attributes renamed
 * and its style elements given the nonce. The finished SVG's renamed attributes are
 * applied through the CSSOM once it is in place of the code. Without JavaScript,
 * or when a diagram fails to parse, the source stays as code.
 */
const LOADER = `(()=>{const me=document.currentScript,nonce=me&&me.nonce||'';
const run=async()=>{const blocks=[...document.querySelectorAll('pre.mermaid')];const m=window.mermaid;if(!blocks.length||!m)return;
const E=Element.prototype,D=Document.prototype,P=DOMParser.prototype,setA=E.setAttribute,ce=D.createElement,ceNS=D.createElementNS,parse=P.parseFromString;
E.setAttribute=function(n,v){if(String(n).toLowerCase()==='style'&&this.style){this.style.cssText=String(v);return}return setA.call(this,n,v)};
const tag=(el)=>{if(el&&String(el.localName).toLowerCase()==='style')el.nonce=nonce;return el};
D.createElement=function(...a){return tag(ce.apply(this,a))};D.createElementNS=function(...a){return tag(ceNS.apply(this,a))};
const q=(v)=>v.replace(/&/g,'&amp;').replace(/"/g,'&quot;');
P.parseFromString=function(t,ty){return parse.call(this,String(t).replace(/<[a-zA-Z][^<>]*>/g,(g)=>g.replace(/\\sstyle=/gi,' data-folio-style=').replace(/^<style\\b(?![^>]*\\snonce=)/i,'<style nonce="'+q(nonce)+'"')),ty)};
try{const d=document.documentElement.dataset.mode;const dark=d?d==='dark':matchMedia('(prefers-color-scheme: dark)').matches;
m.initialize({startOnLoad:false,securityLevel:'strict',theme:dark?'dark':'default',htmlLabels:false,flowchart:{htmlLabels:false}});
let i=0;for(const pre of blocks){try{const r=await m.render('folio-mermaid-'+(i++),pre.textContent||'');
const svg=new DOMParser().parseFromString(r.svg,'image/svg+xml').documentElement;if(svg.localName!=="svg")throw new Error("no SVG: "+svg.localName);
const node=document.importNode(svg,true);
for(const e of [node,...node.querySelectorAll('[data-folio-style]')]){const v=e.getAttribute('data-folio-style');if(v!==null){e.removeAttribute('data-folio-style');e.style.cssText=v}}
const fig=ce.call(document,'div');fig.className='mermaid-diagram';fig.setAttribute('role','img');
fig.setAttribute('aria-label','Diagram: '+(pre.textContent||'').trim().split('\\n')[0].slice(0,80));fig.append(node);pre.replaceWith(fig)}
catch(e){console.warn('Diagram not drawn:',e&&e.message||e);document.querySelectorAll('[id^="dfolio-mermaid-"]').forEach((n)=>n.remove())}}}
finally{E.setAttribute=setA;D.createElement=ce;D.createElementNS=ceNS;P.parseFromString=parse}};
document.readyState==='loading'?addEventListener('DOMContentLoaded',run):run()})();
`;

const FONT_TYPES: Record<string, string> = {
  woff2: 'font/woff2',
  woff: 'font/woff',
  ttf: 'font/ttf',
};

/** A served dialect file: its bytes and type. */
export interface DialectAsset {
  body: Buffer;
  contentType: string;
}

const cache = new Map<string, DialectAsset | null>();

/**
 * The file at `rest` (the path after the site root) when it is one of the dialect assets
 * of the current versions; null for anything else. Read once, then kept in memory.
 */
export function dialectAsset(rest: string): DialectAsset | null {
  if (cache.has(rest)) return cache.get(rest) ?? null;
  const v = version();
  let found: DialectAsset | null = null;
  const katexDir = path.dirname(require.resolve('katex/dist/katex.min.css'));
  if (rest === `_assets/katex-${v.katex}/katex.min.css`) {
    found = {
      body: readFileSync(path.join(katexDir, 'katex.min.css')),
      contentType: 'text/css; charset=utf-8',
    };
  } else if (rest.startsWith(`_assets/katex-${v.katex}/fonts/`)) {
    const name = rest.slice(`_assets/katex-${v.katex}/fonts/`.length);
    const type = FONT_TYPES[name.slice(name.lastIndexOf('.') + 1)];
    if (/^KaTeX_[A-Za-z0-9_-]+\.(?:woff2|woff|ttf)$/.test(name) && type) {
      try {
        found = { body: readFileSync(path.join(katexDir, 'fonts', name)), contentType: type };
      } catch {
        found = null;
      }
    }
  } else if (rest === `_assets/mermaid-${v.mermaid}/mermaid.min.js`) {
    found = {
      body: readFileSync(require.resolve('mermaid/dist/mermaid.min.js')),
      contentType: 'text/javascript; charset=utf-8',
    };
  } else if (rest === `_assets/mermaid-${v.mermaid}/folio-mermaid.js`) {
    found = { body: Buffer.from(LOADER, 'utf8'), contentType: 'text/javascript; charset=utf-8' };
  } else return null;
  // Only real files are remembered, so the map holds at most the few dozen there are.
  if (found) cache.set(rest, found);
  return found;
}

/** The KaTeX stylesheet and its fonts, for the static export: paths relative to `_assets/katex/`. */
export function katexExportFiles(): Array<{ name: string; data: Buffer }> {
  const katexDir = path.dirname(require.resolve('katex/dist/katex.min.css'));
  const fonts = readdirSafe(path.join(katexDir, 'fonts')).filter((f) => /\.woff2$/.test(f));
  return [
    { name: 'katex.min.css', data: readFileSync(path.join(katexDir, 'katex.min.css')) },
    ...fonts.map((f) => ({ name: `fonts/${f}`, data: readFileSync(path.join(katexDir, 'fonts', f)) })),
  ];
}

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
