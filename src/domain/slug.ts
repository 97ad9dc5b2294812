import { invalid } from '../errors.js';
import { toAsciiDashes } from './paths.js';

/** Slugs appear in URLs and MCP arguments; 64 keeps them typeable. */
export const MAX_SLUG_LENGTH = 64;

const SLUG_RE = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

/**
 * Derives a slug candidate from free text: accents folded to ASCII, lowercase letters and
 * digits joined by single dashes, at most 64 characters. Returns `''` when the text has no
 * ASCII letter or digit (e.g. only emoji or CJK), so callers must supply their own fallback;
 * a non-empty result always passes `validateSlug`.
 */
export function slugify(text: string): string {
  return toAsciiDashes(String(text)).slice(0, MAX_SLUG_LENGTH).replace(/-+$/, '');
}

/**
 * Returns `slug` unchanged when it is 1–64 lowercase letters, digits and dashes, not starting
 * or ending with a dash; otherwise throws `invalid('slug', …)` (400 VALIDATION_ERROR).
 * Slugs are never silently rewritten here because they appear in URLs the user already chose.
 */
export function validateSlug(slug: unknown): string {
  if (typeof slug !== 'string' || slug.length === 0) throw invalid('slug', 'Slug is required');
  if (slug.length > MAX_SLUG_LENGTH)
    throw invalid('slug', `Slug must be at most ${MAX_SLUG_LENGTH} characters`);
  if (!SLUG_RE.test(slug)) {
    throw invalid(
      'slug',
      'Slug may contain only lowercase letters, digits and dashes, and must not start or end with a dash',
    );
  }
  return slug;
}
