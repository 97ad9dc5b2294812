/** What the benchmarks share: a JSON client for a running Folio and a signed-up user. */

export type Call = (
  method: string,
  url: string,
  token?: string,
  payload?: unknown,
) => Promise<Record<string, unknown>>;

/** A JSON client for `base` that throws on any status of 300 and above. */
export function jsonClient(base: string): Call {
  return async (method, url, token, payload) => {
    const res = await fetch(base + url, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: payload === undefined ? undefined : JSON.stringify(payload),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : {}) as Record<string, unknown>;
  };
}

/** Registers the benchmark user and answers its access token. */
export async function registerBenchUser(call: Call): Promise<string> {
  const reg = await call('POST', '/api/auth/register', undefined, {
    name: 'Bench',
    email: 'bench@example.com',
    password: 'correct horse battery',
    terms_accepted: true,
  });
  return reg.access_token as string;
}
