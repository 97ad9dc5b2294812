import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { AppError } from '../../errors.js';
import { checkTarget, type TargetRules } from '../webhooks/index.js';

/** What a remote image fetch gives the upload: the bytes and a name from the URL's path. */
export interface FetchedFile {
  filename: string;
  data: Buffer;
}

export interface RemoteFetchOptions {
  rules: TargetRules;
  maxBytes: number;
  /** The whole fetch, redirects included. */
  timeoutMs: number;
}

const MAX_REDIRECTS = 3;

/** The remote failed us (not the caller's input): 502 with the reason, in SPEC's error body. */
const upstream = (message: string): AppError =>
  new AppError('VALIDATION_ERROR', message, { details: { field: 'url' }, status: 502 });

/** The last segment of the URL's path, decoded, as the client name an upload is stored under. */
export function nameFromUrl(url: URL): string {
  const last = url.pathname.split('/').filter(Boolean).pop() ?? '';
  let name = last;
  try {
    name = decodeURIComponent(last);
  } catch {
    // A broken escape keeps the raw segment; the upload name is made safe anyway.
  }
  return name || 'image';
}

/**
 * GETs `raw` for an upload, SSRF-safe as webhook deliveries are: the URL is checked (http(s),
 * no private, loopback, link-local or metadata address) and the connection goes to the
 * address checked, never to a second resolution; each redirect (up to 3) is checked again.
 * The body is cut off past `maxBytes` (413) and the whole fetch past `timeoutMs`.
 */
export async function fetchRemoteFile(raw: string, options: RemoteFetchOptions): Promise<FetchedFile> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  let current = raw;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const target = await checkTarget(current, options.rules, 'image');
    const answer = await get(target.url, target.address, options.maxBytes, signal);
    if ('redirect' in answer) {
      current = new URL(answer.redirect, target.url).href;
      continue;
    }
    return { filename: nameFromUrl(target.url), data: answer.data };
  }
  throw upstream(`The image URL redirects more than ${MAX_REDIRECTS} times`);
}

function get(
  url: URL,
  address: string,
  maxBytes: number,
  signal: AbortSignal,
): Promise<{ data: Buffer } | { redirect: string }> {
  const family = isIP(address);
  const pinned: LookupFunction = (_host, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(
      url,
      { lookup: pinned, signal, headers: { 'user-agent': 'Folio-Uploads', accept: 'image/*' } },
      (response) => {
        const status = response.statusCode ?? 0;
        const location = response.headers.location;
        if (status >= 300 && status < 400 && location) {
          response.resume();
          resolve({ redirect: location });
          return;
        }
        if (status < 200 || status >= 300) {
          response.resume();
          reject(upstream(`The image server answered ${status}`));
          return;
        }
        const declared = Number(response.headers['content-length']);
        if (declared > maxBytes) {
          response.destroy();
          reject(tooLarge(maxBytes));
          return;
        }
        const chunks: Buffer[] = [];
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > maxBytes) {
            response.destroy();
            reject(tooLarge(maxBytes));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => resolve({ data: Buffer.concat(chunks) }));
        response.on('error', (error) => reject(failed(error, signal)));
      },
    );
    request.on('error', (error) => reject(failed(error, signal)));
  });
}

const tooLarge = (maxBytes: number): AppError =>
  new AppError('VALIDATION_ERROR', `The image exceeds the ${maxBytes / 1024 / 1024} MB upload limit`, {
    details: { field: 'url' },
    status: 413,
  });

function failed(error: Error, signal: AbortSignal): AppError {
  if (error instanceof AppError) return error;
  if (signal.aborted)
    return new AppError('VALIDATION_ERROR', 'The image server did not answer in time', {
      details: { field: 'url' },
      status: 504,
    });
  return upstream(`The image could not be fetched: ${error.message}`);
}
