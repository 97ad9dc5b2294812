/**
 * Installs every dialect on a markdown-it instance. Kept apart from index.ts so that only
 * the renderer, itself loaded on first use, loads the dialects' rules with KaTeX and the
 * emoji table; the server's start-up code needs just index.ts's small helpers.
 */
import type MarkdownIt from 'markdown-it';
import { attrListsPlugin } from './attr-lists.js';
import { indentedBlocksPlugin } from './indented-blocks.js';
import { mathPlugin } from './math.js';
import { mdxPlugin } from './mdx.js';
import { obsidianPlugin } from './obsidian.js';
import { shortcodesPlugin } from './shortcodes.js';
import { tabsRenderPlugin } from './tabs.js';

/** Every dialect rule: block syntax, inline syntax and their renderers. */
export function dialectsPlugin(md: MarkdownIt): void {
  mdxPlugin(md);
  indentedBlocksPlugin(md);
  tabsRenderPlugin(md);
  mathPlugin(md);
  obsidianPlugin(md);
  shortcodesPlugin(md);
  attrListsPlugin(md);
}
