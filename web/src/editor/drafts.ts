/** A text the server has not acknowledged, kept on this device. */
export interface Draft {
  doc: string;
  /** The content_hash the text was written against. */
  baseHash: string;
  savedAt: string;
}

const keyOf = (slug: string, path: string) => `folio:draft:${slug}:${path}`;

/** The draft of a page, if one was left behind. */
export function loadDraft(slug: string, path: string): Draft | null {
  try {
    const text = localStorage.getItem(keyOf(slug, path));
    return text ? (JSON.parse(text) as Draft) : null;
  } catch {
    return null;
  }
}

/** Keeps the text on this device; answers false when storage is full or unavailable. */
export function saveDraft(slug: string, path: string, doc: string, baseHash: string): boolean {
  try {
    const draft: Draft = { doc, baseHash, savedAt: new Date().toISOString() };
    localStorage.setItem(keyOf(slug, path), JSON.stringify(draft));
    return true;
  } catch {
    return false;
  }
}

/** Forgets the draft once the server holds the text. */
export function clearDraft(slug: string, path: string): void {
  try {
    localStorage.removeItem(keyOf(slug, path));
  } catch {
    // Storage unavailable: nothing was kept.
  }
}
