/** An error answer of the API: `{ error, message, details?, request_id }` and its status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** Thrown when the server could not be reached at all (offline, refused, reset). */
export class NetworkError extends Error {}

let refreshing: Promise<boolean> | null = null;

/** Calls whose 401 means wrong credentials, not an expired access cookie. */
const NO_REFRESH =
  /^\/api\/auth\/(?:login|register|refresh|logout|reset-password|webauthn\/login|oidc\/claim)/;

/** Renews the access cookie from the refresh cookie, once for any number of callers at the same time. */
function refreshSession(): Promise<boolean> {
  refreshing ??= fetch('/api/auth/refresh', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
    credentials: 'same-origin',
  })
    .then((res) => res.ok)
    .catch(() => false)
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

async function send(method: string, url: string, body: unknown): Promise<Response> {
  const isForm = body instanceof FormData;
  try {
    return await fetch(url, {
      method,
      credentials: 'same-origin',
      headers: body === undefined || isForm ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    });
  } catch (error) {
    throw new NetworkError(error instanceof Error ? error.message : 'The server cannot be reached');
  }
}

/**
 * Calls the API with the session cookies. An expired access cookie is renewed
 * through the refresh cookie and the call repeated once. Answers the parsed
 * JSON (undefined for 204); throws ApiError or NetworkError.
 */
export async function api<T>(method: string, url: string, body?: unknown): Promise<T> {
  let res = await send(method, url, body);
  if (res.status === 401 && !NO_REFRESH.test(url) && (await refreshSession())) {
    res = await send(method, url, body);
  }
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!res.ok) {
    const err = (parsed ?? {}) as Record<string, unknown>;
    const message = typeof err.message === 'string' ? err.message : `Request failed (${res.status})`;
    throw new ApiError(res.status, String(err.error ?? 'INTERNAL_ERROR'), message, err);
  }
  return parsed as T;
}

/** `/api/v1/content/<slug>/<path>` with each path segment encoded. */
export function contentUrl(slug: string, pagePath: string): string {
  const encoded = pagePath.split('/').map(encodeURIComponent).join('/');
  return `/api/v1/content/${encodeURIComponent(slug)}/${encoded}`;
}
