/**
 * HTML escaping shared by every template in `src/render/`. Templates build strings by
 * hand (no template engine, to keep page renders well under a millisecond), so every
 * interpolated value goes through one of these.
 */

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Escapes `& < > " '` so the result is safe both as element text and inside a quoted
 * attribute value. `null` and `undefined` become the empty string.
 */
export function escapeHtml(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  return String(value).replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch] ?? ch);
}

/**
 * Returns `href` escaped for an attribute, or `#` when it uses a scheme a browser would
 * execute (`javascript:`, `vbscript:`, `data:`). Control characters and whitespace are
 * ignored when detecting the scheme because browsers ignore them too (`java\tscript:`).
 */
export function safeHref(href: string): string {
  let probe = '';
  for (const ch of href) {
    const code = ch.charCodeAt(0);
    if (code > 0x20 && (code < 0x7f || code > 0x9f)) probe += ch.toLowerCase();
    if (probe.length > 11) break;
  }
  if (/^(?:javascript|vbscript|data):/.test(probe)) return '#';
  return escapeHtml(href);
}

/**
 * Makes a search snippet safe to embed while keeping its `<mark>` highlights. The
 * snippet is expected to be escaped already; this is a second
 * line of defence: any other `<`, `>` or `"` is escaped and a bare `&` that does not
 * start an entity becomes `&amp;`.
 */
export function escapeSnippet(snippet: string): string {
  return snippet
    .split(/(<\/?mark>)/)
    .map((part) =>
      part === '<mark>' || part === '</mark>'
        ? part
        : part
            .replace(/&(?!(?:#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);)/gi, '&amp;')
            .replace(/</g, '&lt;')
            .replace(/>/g, '&gt;')
            .replace(/"/g, '&quot;'),
    )
    .join('');
}
