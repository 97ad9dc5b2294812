import crypto from 'node:crypto';

/** The three surfaces that get a Content-Security-Policy of their own. */
export type Surface = 'api' | 'site' | 'app';

// Nonces come from a pool of crypto-random bytes refilled 256 at a time, because a
// randomBytes call per request is a noticeable share of a published page's cost.
const noncePool = Buffer.alloc(16 * 256);
let nonceAt = noncePool.length;

/** 16 unpredictable bytes, base64: a fresh CSP nonce for one response. */
export const newNonce = (): string => {
  if (nonceAt >= noncePool.length) {
    crypto.randomFillSync(noncePool);
    nonceAt = 0;
  }
  nonceAt += 16;
  return noncePool.toString('base64', nonceAt - 16, nonceAt);
};

/**
 * The policy for a surface. HTML surfaces allow exactly one inline script and
 * style by nonce; the API never serves active content.
 */
export function contentSecurityPolicy(surface: Surface, nonce?: string): string {
  if (surface === 'api') return "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";
  const n = nonce ? ` 'nonce-${nonce}'` : '';
  const connect = surface === 'app' ? "'self' ws: wss:" : "'self'";
  // The app shows pasted images from blob: URLs before upload; the site may embed remote images.
  const img = surface === 'app' ? "'self' data: blob:" : "'self' data: https:";
  return [
    "default-src 'self'",
    `script-src 'self'${n}`,
    `style-src 'self'${n}`,
    `img-src ${img}`,
    "font-src 'self'",
    `connect-src ${connect}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Served with uploaded SVGs and other files a user supplied: nothing in them may run. */
export const UPLOAD_CSP = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox";
