import { acceptsGzip } from './accepts-gzip.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError } from '../errors.js';
import { contentSecurityPolicy, newNonce } from './security.js';

/**
 * Where the built app is looked for by default: `web/` beside the server bundle
 * (dist/folio.js, or dist/chunks/ one level down), else `dist/web` of the checkout
 * this code runs from (the TypeScript sources in development and tests).
 */
export function defaultWebAppDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const candidate of [path.join(here, 'web'), path.join(here, '..', 'web')]) {
    if (existsSync(path.join(candidate, 'index.html'))) return candidate;
  }
  let dir = here;
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return path.join(dir, 'dist', 'web');
}

/** Paths that belong to other surfaces: an unknown path under them is a JSON 404, never the app. */
const NOT_THE_APP = /^\/(?:api|p|mcp|ws|metrics)(?:\/|$)/;

/** Where index.html takes each response's CSP nonce (web/index.html). */
const NONCE_PLACEHOLDER = '__CSP_NONCE__';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

interface StaticFile {
  abs: string;
  type: string;
  /** A gzipped copy written by the build, served to clients that accept it. */
  gzip: string | null;
  /** Hashed names never change content, so browsers may keep them for a year. */
  immutable: boolean;
}

/** Every file of the build by URL path, so a request can only name a file that exists. */
function listFiles(dir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  const walk = (rel: string) => {
    for (const entry of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const relPath = path.posix.join(rel, entry.name);
      if (entry.isDirectory()) walk(relPath);
      else if (!entry.name.endsWith('.gz') && entry.name !== 'index.html') {
        const abs = path.join(dir, relPath);
        files.set(`/${relPath}`, {
          abs,
          type: TYPES[path.extname(entry.name)] ?? 'application/octet-stream',
          gzip: existsSync(`${abs}.gz`) ? `${abs}.gz` : null,
          immutable: relPath.startsWith('assets/'),
        });
      }
    }
  };
  if (existsSync(dir)) walk('');
  return files;
}

const safeDecode = (urlPath: string) => {
  try {
    return decodeURIComponent(urlPath);
  } catch {
    return urlPath;
  }
};

const acceptsHtml = (request: FastifyRequest) => /text\/html/.test(String(request.headers.accept ?? ''));

function sendFile(request: FastifyRequest, reply: FastifyReply, file: StaticFile) {
  const gzip = file.gzip && acceptsGzip(request);
  const abs = gzip && file.gzip ? file.gzip : file.abs;
  reply.header('Content-Type', file.type);
  reply.header('Content-Length', statSync(abs).size);
  reply.header('Vary', 'Accept-Encoding');
  if (gzip) reply.header('Content-Encoding', 'gzip');
  reply.header('Cache-Control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
  return reply.send(createReadStream(abs));
}

/** The app's index page for a deep link: the app routes it itself. */
function sendIndex(request: FastifyRequest, reply: FastifyReply, index: string | null) {
  if (!index) throw new AppError('NOT_FOUND', 'The web app is not built: run npm run build');
  return (
    reply
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .header('Referrer-Policy', 'same-origin')
      // The editor injects its styles as <style> elements, allowed by this response's nonce.
      .send(index.replaceAll(NONCE_PLACEHOLDER, request.cspNonce))
  );
}

export interface WebApp {
  /** The build's files as routes, and `/`. */
  routes(app: FastifyInstance): void;
  /**
   * For a request no route matched: the app's index page when it is a GET that accepts
   * HTML outside `/api`, `/p/`, `/mcp` and `/ws` (a deep link), else null, and the
   * ordinary 404 answers. Not a wildcard route, so every other surface keeps its own
   * 404s, content-security-policy and URL checks.
   */
  fallback(request: FastifyRequest, reply: FastifyReply): FastifyReply | null;
}

/**
 * The writers' web app at `/` of the main host: the build's files,
 * hashed ones cached for a year, and `index.html` for deep links. JSON clients still get
 * 404 NOT_FOUND. The build is listed once, at start.
 */
export function createWebApp(options: { dir?: string } = {}): WebApp {
  const dir = options.dir ?? defaultWebAppDir();
  const files = listFiles(dir);
  const indexPath = path.join(dir, 'index.html');
  const index = existsSync(indexPath) ? readFileSync(indexPath, 'utf8') : null;
  const config = { surface: 'app' } as const;
  return {
    routes(app) {
      const serve = (request: FastifyRequest, reply: FastifyReply) => {
        const file = files.get(safeDecode(request.url.split('?')[0] ?? '/'));
        if (!file) throw new AppError('NOT_FOUND', 'No such file in the web app');
        return sendFile(request, reply, file);
      };
      app.get('/', { config }, (request, reply) => sendIndex(request, reply, index));
      app.get('/assets/*', { config }, serve);
      // The few files at the top of the build (the favicon), each a route of its own.
      for (const urlPath of files.keys())
        if (!urlPath.startsWith('/assets/')) app.get(urlPath, { config }, serve);
    },
    fallback(request, reply) {
      const urlPath = request.url.split('?')[0] ?? '/';
      if (request.method !== 'GET' || !acceptsHtml(request)) return null;
      if (NOT_THE_APP.test(urlPath) || urlPath.startsWith('/assets/')) return null;
      request.cspNonce = newNonce();
      reply.header('Content-Security-Policy', contentSecurityPolicy('app', request.cspNonce));
      return sendIndex(request, reply, index);
    },
  };
}
