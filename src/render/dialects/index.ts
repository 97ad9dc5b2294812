/**
 * The dialects of other docs tools that Folio renders in place (MkDocs Material,
 * Docusaurus MDX, Obsidian), installed together on the page renderer and the plain-text
 * parser. Internal to `src/render/`.
 */
import type MarkdownIt from 'markdown-it';
import { indentedBlocksPlugin } from './indented-blocks.js';
import { mathPlugin } from './math.js';
import { mdxPlugin } from './mdx.js';
import { obsidianPlugin } from './obsidian.js';
import { shortcodesPlugin } from './shortcodes.js';
import { tabsRenderPlugin } from './tabs.js';

export { calloutDefaultTitle, calloutKind } from './callout-kinds.js';
export { embedOptions, IMAGE_EXTENSIONS, isFileEmbed, type EmbedOptions } from './obsidian.js';
export { findIconShortcodes, ICON_SHORTCODE } from './shortcodes.js';
export { isEsmLine, KNOWN_COMPONENTS, parseJsxLine } from './mdx.js';
export { TABS_SCRIPT } from './tabs.js';

/** Every dialect rule: block syntax, inline syntax and their renderers. */
export function dialectsPlugin(md: MarkdownIt): void {
  mdxPlugin(md);
  indentedBlocksPlugin(md);
  tabsRenderPlugin(md);
  mathPlugin(md);
  obsidianPlugin(md);
  shortcodesPlugin(md);
}
