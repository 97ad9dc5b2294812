/**
 * The published site's responses and the small pieces every one of them is made with:
 * cache modes, ETags, nonce-split documents, site hrefs and the footer's consent form.
 */
import { createHash } from 'node:crypto';
import { escapeHtml } from '../../../render/escape.js';
import { NONCE_PLACEHOLDER } from '../../../render/layout.js';
import { siteHrefs } from '../../../render/published-markdown.js';
import { themeCssHash, type ThemeName } from '../../../render/themes.js';
import type { Linker } from './nav.js';
import type { ServedUpload } from '../../pages/uploads.js';

/** How a response may be cached: the API's public max-age=300, private for members-only sites. */
export type CacheMode = 'public' | 'private' | 'revalidate' | 'immutable';

/**
 * What the HTTP adapter sends. A document comes as UTF-8 chunks that were separated by
 * {@link NONCE_PLACEHOLDER}: the adapter joins them with the request's nonce, so a cached
 * page is never re-encoded.
 */
export type SiteResponse =
  | { type: 'document'; status: 200 | 404; chunks: Buffer[]; etag: string | null; cache: CacheMode }
  | { type: 'redirect'; location: string }
  | { type: 'text'; contentType: string; body: string | Buffer; etag: string; cache: CacheMode }
  | { type: 'upload'; upload: ServedUpload; cache: CacheMode };

/** A document's UTF-8 bytes, split where the nonce goes. */
export const documentChunks = (html: string): Buffer[] =>
  html.split(NONCE_PLACEHOLDER).map((part) => Buffer.from(part, 'utf8'));

/** A weak validator over a document (before its nonce) or file. */
export const weakEtag = (text: string | Buffer): string =>
  `W/"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;

const linkers = new Map<string, Linker>();

/** Hrefs of the live site or a version: absolute paths under `base` (one linker per base, reused). */
export function siteLinker(base: string): Linker {
  let linker = linkers.get(base);
  if (!linker) {
    linker = makeSiteLinker(base);
    // Bases are few (site roots, versions, custom domains); the bound only guards against misuse.
    if (linkers.size > 10_000) linkers.clear();
    linkers.set(base, linker);
  }
  return linker;
}

function makeSiteLinker(base: string): Linker {
  return { key: `site:${base}`, ...siteHrefs(base) };
}

/** The stylesheet's cacheable URL under a site root: the hash changes whenever the CSS does. */
export const themeHref = (root: string, theme: ThemeName): string =>
  `${root}_assets/theme-${theme}-${themeCssHash(theme)}.css`;

/** The theme's favicon under a site root. */
export const iconHref = (root: string, theme: ThemeName): string => `${root}_assets/favicon-${theme}.svg`;

/** The footer's consent form: works without JavaScript, posts to the consent endpoint and comes back. */
export function consentForm(returnTo: string): string {
  return (
    '<form class="consent" method="post" action="/api/analytics/consent">' +
    `<input type="hidden" name="return_to" value="${escapeHtml(returnTo)}">` +
    '<span>Count my visits anonymously?</span>' +
    '<button type="submit" name="consent" value="true">Allow</button>' +
    '<button type="submit" name="consent" value="false">No thanks</button></form>'
  );
}
