/**
 * The dialects of other docs tools that Folio renders in place (MkDocs Material,
 * Docusaurus MDX, Obsidian), installed together on the page renderer and the plain-text
 * parser by plugin.ts. Internal to `src/render/`. This face holds only what code outside
 * the renderer needs, and nothing that loads KaTeX or the emoji table.
 */
export { calloutDefaultTitle, calloutKind } from './callout-kinds.js';
export { embedOptions, IMAGE_EXTENSIONS, isFileEmbed, type EmbedOptions } from './obsidian.js';
export { findIconShortcodes, ICON_SHORTCODE } from './icon-shortcodes.js';
export { isEsmLine, KNOWN_COMPONENTS, parseJsxLine } from './mdx.js';
export { TABS_SCRIPT } from './tabs.js';
