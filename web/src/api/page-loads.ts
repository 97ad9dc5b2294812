import { api, contentUrl } from './client';
import type { Page } from '../../../src/contract/pages';

/** Loads started before the editor's code arrived, each waiting for the editor to take it. */
const early = new Map<string, Promise<Page>>();
const keyOf = (slug: string, path: string) => `${slug}\u0000${path}`;

/** Starts loading a page now, for the editor to pick up when it opens that page. */
export function loadPageEarly(slug: string, path: string): void {
  const key = keyOf(slug, path);
  if (early.has(key)) return;
  const loading = api<Page>('GET', contentUrl(slug, path));
  // A failure is the editor's to report, when it takes the load; until then it is held, not thrown.
  loading.catch(() => undefined);
  early.set(key, loading);
}

/**
 * The page as the server holds it: the load started early if there is one (taken once, so
 * opening the page again later asks the server afresh), otherwise a new request.
 */
export function loadPage(slug: string, path: string): Promise<Page> {
  const key = keyOf(slug, path);
  const started = early.get(key);
  early.delete(key);
  return started ?? api<Page>('GET', contentUrl(slug, path));
}
