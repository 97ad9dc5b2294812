/**
 * How tab groups render (MkDocs content tabs and Docusaurus `<Tabs>` alike): every panel
 * in order under its label, so without JavaScript (and in the export opened offline) a
 * reader sees all of them; the site's script turns a group into an ARIA tablist with
 * arrow-key navigation and shows one panel at a time.
 */
import type MarkdownIt from 'markdown-it';
import { escapeHtml } from '../escape.js';

/** Installs the tab group renderers. */
export function tabsRenderPlugin(md: MarkdownIt): void {
  md.renderer.rules.folio_tabs_open = () => '<div class="tabs">\n';
  md.renderer.rules.folio_tabs_close = () => '</div>\n';
  md.renderer.rules.folio_tab_open = (tokens, idx, _options, env) => {
    const meta = (tokens[idx]?.meta ?? {}) as { label?: string; selected?: boolean; markdown?: boolean };
    const label = meta.label?.trim() || 'Tab';
    // A label written in Markdown (MkDocs) renders inline; a JSX attribute's is plain text.
    const html = meta.markdown ? md.renderInline(label, env) : escapeHtml(label);
    return `<div class="tab-panel${meta.selected ? ' tab-selected' : ''}"><p class="tab-label">${html.trim() || 'Tab'}</p>\n`;
  };
  md.renderer.rules.folio_tab_close = () => '</div>\n';
}

/**
 * The site script's part for tabs (a function body run once per page): labels become
 * buttons of a `role="tablist"`; Left/Right/Home/End move between them.
 */
export const TABS_SCRIPT =
  "q('.tabs').forEach((g,gi)=>{const ps=[...g.children].filter((p)=>p.classList.contains('tab-panel'));if(!ps.length)return;" +
  "const l=document.createElement('div');l.setAttribute('role','tablist');l.className='tab-list';" +
  "let s=ps.findIndex((p)=>p.classList.contains('tab-selected'));if(s<0)s=0;" +
  "const bs=ps.map((p,i)=>{const lab=p.querySelector(':scope>.tab-label');const b=document.createElement('button');" +
  "b.type='button';b.setAttribute('role','tab');b.id='tab-'+gi+'-'+i;b.textContent=lab?lab.textContent:'Tab '+(i+1);" +
  "if(lab)lab.hidden=true;p.id='tabpanel-'+gi+'-'+i;p.setAttribute('role','tabpanel');p.setAttribute('aria-labelledby',b.id);" +
  "b.setAttribute('aria-controls',p.id);l.append(b);return b});" +
  "const pick=(n,f)=>{bs.forEach((b,i)=>{const on=i===n;b.setAttribute('aria-selected',String(on));b.tabIndex=on?0:-1;ps[i].hidden=!on;" +
  'if(on)ps[i].tabIndex=0});if(f)bs[n].focus()};' +
  "bs.forEach((b,i)=>{b.addEventListener('click',()=>pick(i,false));b.addEventListener('keydown',(e)=>{const k=e.key;" +
  "const n=k==='ArrowRight'?(i+1)%bs.length:k==='ArrowLeft'?(i-1+bs.length)%bs.length:k==='Home'?0:k==='End'?bs.length-1:-1;" +
  "if(n>=0){e.preventDefault();pick(n,true)}})});g.prepend(l);g.classList.add('tabs-ready');pick(s,false)});";
