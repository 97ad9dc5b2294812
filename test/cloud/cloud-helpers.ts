import yauzl from 'yauzl';
import type { DatabaseTarget } from '../helpers/databases.js';
import type { StartOptions } from '../helpers/server.js';
import { startCollab } from '../collab/collab-helpers.js';

/** A Cloud-edition server on `target`'s database (see startCollab), the GDPR bucket left at its real limit. */
export function startCloud(target: DatabaseTarget, options: StartOptions = {}) {
  return startCollab(target, { ...options, env: { EDITION: 'cloud', ...options.env } });
}

/** Downloads a ZIP with a bearer token: the response and the bytes. */
export async function downloadZip(base: string, urlPath: string, token: string) {
  const res = await fetch(base + urlPath, { headers: { authorization: `Bearer ${token}` } });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** Every file of a ZIP by name, read with yauzl. */
export async function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  const zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true });
  const files = new Map<string, Buffer>();
  for await (const entry of zip.eachEntry()) {
    const stream = await zip.openReadStreamPromise(entry);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    files.set(entry.fileName, Buffer.concat(chunks));
  }
  return files;
}

/** A JSON document of an unzipped export. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON
export function jsonOf(files: Map<string, Buffer>, name: string): any {
  const file = files.get(name);
  if (!file) throw new Error(`${name} is not in the ZIP (${[...files.keys()].join(', ')})`);
  return JSON.parse(file.toString('utf8'));
}

/** Routes of the other half of the Cloud edition (billing), covered by its own suites. */
export const isBillingRoute = (url: string): boolean =>
  url.startsWith('/api/v1/billing') ||
  url.startsWith('/api/webhooks/stripe') ||
  url.startsWith('/api/v1/admin/billing');

/** `METHOD url` of every route a Cloud server registers that a Community one does not (HEAD left out). */
export function cloudOnlyRoutes(
  cloud: Array<{ method: string; url: string }>,
  community: Array<{ method: string; url: string }>,
): string[] {
  const key = (r: { method: string; url: string }) => `${r.method} ${r.url}`;
  const shared = new Set(community.map(key));
  return [...new Set(cloud.filter((r) => r.method !== 'HEAD').map(key))].filter((k) => !shared.has(k)).sort();
}
