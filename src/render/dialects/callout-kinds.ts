/**
 * The callout kinds of every docs tool Folio reads, folded onto the few the themes style:
 * MkDocs Material's admonition types, Obsidian's callout types and GitHub's alerts share
 * one vocabulary (`summary` is `abstract`, `error` is `danger`, …). Unknown kinds keep
 * their own name as the title and the `note` look.
 */
const ALIASES: Record<string, string> = {
  summary: 'abstract',
  tldr: 'abstract',
  hint: 'tip',
  check: 'success',
  done: 'success',
  help: 'question',
  faq: 'question',
  attention: 'warning',
  fail: 'failure',
  missing: 'failure',
  error: 'danger',
  cite: 'quote',
  todo: 'info',
  seealso: 'note',
};

const STYLED = new Set(
  'note tip important warning caution danger info abstract success question failure bug example quote'.split(
    ' ',
  ),
);

/** The class suffix for a kind as written (`callout-<kind>`), always one the sanitiser allows. */
export function calloutKind(written: string): string {
  const kind = written.toLowerCase();
  const canonical = ALIASES[kind] ?? kind;
  return STYLED.has(canonical) ? canonical : 'note';
}

/** The default title of a kind as written: its name capitalised (`faq` → `Faq`, `note` → `Note`). */
export function calloutDefaultTitle(written: string): string {
  return written ? written.charAt(0).toUpperCase() + written.slice(1).toLowerCase() : 'Note';
}
