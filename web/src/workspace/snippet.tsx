const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};

const decode = (text: string) => text.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e] ?? e);

/**
 * A search snippet: HTML-escaped text with matches in <mark>…</mark>, shown as text and <mark> elements without ever parsing it as HTML.
 */
export function Snippet({ html }: { html: string }) {
  const parts = html.split(/<mark>|<\/mark>/);
  return (
    <span className="snippet">
      {parts.map((part, i) => (i % 2 === 1 ? <mark key={i}>{decode(part)}</mark> : decode(part)))}
    </span>
  );
}
