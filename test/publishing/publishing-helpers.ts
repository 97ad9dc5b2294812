import type { DatabaseTarget } from '../helpers/databases.js';
import { startServer, type StartOptions, type TestServer } from '../helpers/server.js';
import type { TestUser } from '../helpers/users.js';
import type { TestWorkspace } from '../helpers/workspace-access.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON */

/** Limits a busy publishing suite does not trip (the export suite sets its own). */
const LIFTED = { limit: 1_000_000 };

/**
 * A real Folio with the content, site and auth limits lifted, on SQLite or, given a
 * PostgreSQL target, in a schema of its own that `close` drops.
 */
export async function startPublishing(
  options: StartOptions = {},
  target?: DatabaseTarget,
): Promise<TestServer> {
  const db = await target?.prepare();
  const server = await startServer({
    ...options,
    env: { ...db?.env, ...options.env },
    ...(db?.pgSchema ? { pgSchema: db.pgSchema } : {}),
    rateLimits: {
      auth: LIFTED,
      registration: LIFTED,
      contentRead: LIFTED,
      contentWrite: LIFTED,
      search: LIFTED,
      publishedDocs: LIFTED,
      ...options.rateLimits,
    },
  });
  return {
    ...server,
    async close() {
      await server.close();
      await db?.cleanup();
    },
  };
}

/** Fetches without following redirects and keeps the raw text (site pages are HTML). */
export async function get(
  server: TestServer,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await fetch(server.url + path, { headers, redirect: 'manual' });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** Writes workspace settings through the settings API; throws unless 200. */
export async function setSettings(
  server: TestServer,
  user: TestUser,
  ws: TestWorkspace,
  settings: Record<string, unknown>,
): Promise<any> {
  const res = await server.request('PUT', `/api/v1/workspaces/${ws.id}/admin/settings`, {
    token: user.token,
    body: settings,
  });
  if (res.status !== 200) throw new Error(`settings: ${res.status} ${res.text}`);
  return res.body;
}

/** Replaces a page's body through the content API (reading its hash first). */
export async function editPage(
  server: TestServer,
  user: TestUser,
  ws: TestWorkspace,
  path: string,
  body: string,
  frontmatter?: Record<string, unknown>,
): Promise<any> {
  const url = `/api/v1/content/${ws.slug}/${path}`;
  const current = await server.request('GET', url, { token: user.token });
  if (current.status !== 200) throw new Error(`read ${path}: ${current.status} ${current.text}`);
  const res = await server.request('PUT', url, {
    token: user.token,
    body: { body, lastKnownHash: current.body.content_hash, ...(frontmatter ? { frontmatter } : {}) },
  });
  if (res.status !== 200) throw new Error(`edit ${path}: ${res.status} ${res.text}`);
  return res.body;
}

/** Uploads a file through the uploads API and answers its stored name. */
export async function upload(
  server: TestServer,
  user: TestUser,
  ws: TestWorkspace,
  name: string,
  bytes: Buffer,
  type = 'image/png',
): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  const res = await fetch(`${server.url}/api/v1/content/${ws.slug}/uploads`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}` },
    body: form,
  });
  const json = (await res.json()) as { filename?: string };
  if (res.status !== 201 || !json.filename) throw new Error(`upload: ${res.status} ${JSON.stringify(json)}`);
  return json.filename;
}

/** A tiny valid PNG (1x1). */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** The value of the CSP nonce a site response allowed. */
export function cspNonce(headers: Headers): string | undefined {
  return /'nonce-([^']+)'/.exec(headers.get('content-security-policy') ?? '')?.[1];
}
