import type { FastifyRequest } from 'fastify';
import { type AppError, forbidden } from '../errors.js';

/** Methods that change nothing, so a forged cross-site one can do no harm. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const isUnsafeMethod = (method: string): boolean => !SAFE_METHODS.has(method);

/**
 * Whether a request comes from Folio's own pages. Browsers say where a request
 * comes from in `Sec-Fetch-Site` and `Origin`: the first must be `same-origin`
 * (or `none`, typed by the user), the second Folio's public origin
 * (PUBLIC_URL) or the origin of the request's own Host. A client that sends
 * neither header is not a browser, and no page can forge a request for it.
 */
export function fromOwnOrigin(request: FastifyRequest, publicOrigin: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  if (origin === publicOrigin) return true;
  try {
    // `null` (sandboxed frames, some redirects) is not a URL and is refused here.
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}

/** The refusal of a cookie-authenticated change that did not come from Folio's own pages. */
export const crossOriginRefused = (): AppError =>
  forbidden('Cross-origin requests may not use the session cookie');
