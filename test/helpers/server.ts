import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configFrom } from '../../src/config.js';
import { createFolio, type Folio, type FolioOptions } from '../../src/main.js';

export interface TestServer {
  folio: Folio;
  url: string;
  dataDir: string;
  /** fetch against the server with JSON in and out. */
  request(method: string, urlPath: string, options?: RequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface RequestOptions {
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON
  text: string;
}

export function tempDir(prefix = 'folio-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * The environment every test instance starts from: silent logs, loopback, a free port and
 * the cheapest Argon2 cost the config accepts (a registration then hashes in a millisecond).
 */
export function testEnv(dataDir: string): Record<string, string> {
  return {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    TRUST_PROXY: 'true',
    ARGON2_MEMORY: '1024',
    ARGON2_TIME: '1',
    ARGON2_THREADS: '1',
  };
}

export interface StartOptions extends FolioOptions {
  env?: Record<string, string>;
  dataDir?: string;
  /** Adds routes before the server starts (for exercising shared mechanisms). */
  beforeListen?: (folio: Folio) => void | Promise<void>;
  /**
   * Answer as soon as the server listens, before start-up reconciliation has finished
   * (`/api/ready` still 503). By default the server is handed over ready, as a load
   * balancer would.
   */
  beforeReady?: boolean;
}

/** A real Folio on a free loopback port with a temporary DATA_DIR. */
export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? tempDir();
  const config = configFrom({ ...testEnv(dataDir), ...options.env });
  const folio = await createFolio(config, options);
  await options.beforeListen?.(folio);
  const address = await folio.listen();
  if (!options.beforeReady) await folio.runtime.reconciled();
  const url = address.replace('0.0.0.0', '127.0.0.1');
  return {
    folio,
    url,
    dataDir,
    request: (method, urlPath, opts = {}) => request(url, method, urlPath, opts),
    close: () => folio.close(),
  };
}

export async function request(
  base: string,
  method: string,
  urlPath: string,
  options: RequestOptions = {},
): Promise<TestResponse> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  }
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const res = await fetch(base + urlPath, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}
