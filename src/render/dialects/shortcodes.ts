/**
 * Shortcodes: `:smile:` emoji become their characters (markdown-it-emoji, without its
 * text-smiley shortcuts, which would turn `8-)` in prose into a face). Icon shortcodes of
 * MkDocs Material (`:material-…:`, `:octicons-…:`, `:fontawesome-…:`, `:simple-…:`) name
 * icon sets Folio does not ship: they are removed rather than shown as text, and the
 * quality report lists them (icon-shortcodes.ts).
 */
import type MarkdownIt from 'markdown-it';
import type { PluginWithOptions, StateCore } from 'markdown-it';
import { full as emoji } from 'markdown-it-emoji';
import { ICON_SHORTCODE } from './icon-shortcodes.js';

function removeIcons(state: StateCore): void {
  for (const token of state.tokens) {
    if (token.type !== 'inline' || !token.content.includes(':')) continue;
    for (const child of token.children ?? []) {
      if (child.type === 'text' && child.content.includes(':'))
        child.content = child.content.replace(ICON_SHORTCODE, '');
    }
  }
}

/** Installs emoji shortcodes and the removal of icon shortcodes. */
export function shortcodesPlugin(md: MarkdownIt): void {
  // @types/markdown-it-emoji is typed against markdown-it's CJS typings; same runtime object.
  md.use(emoji as unknown as PluginWithOptions<{ shortcuts: Record<string, string[]> }>, { shortcuts: {} });
  md.core.ruler.after('inline', 'folio_icon_shortcodes', removeIcons);
}
