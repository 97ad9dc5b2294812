/**
 * Icon shortcodes of MkDocs Material (`:material-…:`, `:octicons-…:`, `:fontawesome-…:`,
 * `:simple-…:`): found here for the quality report without loading the emoji table, which
 * only the renderer needs (shortcodes.ts).
 */

/** An icon shortcode; the name is letters, digits and dashes. */
export const ICON_SHORTCODE = /:(?:material|octicons|fontawesome|simple)-[a-z0-9]+(?:-[a-z0-9]+)*:/g;

/** The icon shortcodes of a text, in order (for the quality report). */
export function findIconShortcodes(text: string): string[] {
  return text.match(ICON_SHORTCODE) ?? [];
}
