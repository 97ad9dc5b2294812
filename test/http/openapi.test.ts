/**
 * The OpenAPI document at /api/openapi.json and the reference page at /api/docs, through
 * real HTTP: every API route is described, the document is valid OpenAPI 3.1, and the page
 * loads only its own assets.
 */
import { validate, compileErrors } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../../src/http/app.js';
import { startServer, type TestServer } from '../helpers/server.js';

type Document = { openapi: string; paths: Record<string, Record<string, unknown>> };

/**
 * Routes under /api that the document leaves out on purpose:
 * - HEAD: Fastify adds one for every GET, answered by the GET's handler;
 * - /api/docs and everything under it: the reference page itself (HTML, scripts, styles,
 *   not part of the API it describes.
 */
const undocumentedOnPurpose = (route: RouteEntry): boolean =>
  route.method === 'HEAD' || route.url === '/api/docs' || route.url.startsWith('/api/docs/');

/** Fastify's `/a/:id/*` is OpenAPI's `/a/{id}/{*}`. */
const openApiPath = (url: string): string => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{*}');

/** The API routes the document does not describe, as `METHOD url`. */
function undescribed(routes: RouteEntry[], doc: Document): string[] {
  return routes
    .filter((route) => route.url.startsWith('/api/') && !undocumentedOnPurpose(route))
    .filter((route) => !doc.paths[openApiPath(route.url)]?.[route.method.toLowerCase()])
    .map((route) => `${route.method} ${route.url}`);
}

describe('OpenAPI document and reference page', () => {
  let server: TestServer;
  let doc: Document;

  beforeAll(async () => {
    server = await startServer();
    const res = await fetch(`${server.url}/api/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    doc = (await res.json()) as Document;
  });
  afterAll(async () => {
    await server.close();
  });

  it('describes every route under /api with its method', () => {
    const routes = server.folio.app.routeTable;
    // The routes the test walks are the real ones: the main API families are among them.
    for (const url of ['/api/auth/login', '/api/v1/workspaces', '/api/v1/content/:workspace/*'])
      expect(routes.some((r) => r.url === url)).toBe(true);
    expect(undescribed(routes, doc)).toEqual([]);
    // A route missing from the document is reported.
    const { ['/api/v1/workspaces/{id}/search']: _search, ...fewer } = doc.paths;
    expect(undescribed(routes, { ...doc, paths: fewer })).toEqual(['GET /api/v1/workspaces/:id/search']);
  });

  it('is valid OpenAPI 3.1', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('documents inputs and responses from the route schemas', () => {
    const login = doc.paths['/api/auth/login']?.post as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON
    const body = login.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(['email', 'password']);
    const tokens = login.responses['200'].content['application/json'].schema;
    expect(Object.keys(tokens.properties)).toEqual(['access_token', 'refresh_token', 'expires_in']);
    const search = doc.paths['/api/v1/workspaces/{id}/search']?.get as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON
    const names = (search.parameters as Array<{ in: string; name: string }>).map((p) => `${p.in}:${p.name}`);
    expect(names).toEqual(expect.arrayContaining(['path:id', 'query:q', 'query:limit']));
  });

  it('is public', async () => {
    const res = await fetch(`${server.url}/api/openapi.json`, {
      headers: { authorization: 'Bearer not-a-token' },
    });
    expect(res.status).toBe(200);
  });

  it('serves the reference page with assets that load from this server', async () => {
    const page = await fetch(`${server.url}/api/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await page.text();
    // No inline script: each <script> loads a file (the policy would block anything else).
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, content] of scripts) {
      expect(attributes).toMatch(/\bsrc="/);
      expect(content!.trim()).toBe('');
    }
    const assets = [...html.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(4);
    for (const asset of assets) {
      const url = new URL(asset, `${server.url}/api/docs`);
      expect(url.origin, asset).toBe(server.url);
      const res = await fetch(url);
      expect(res.status, asset).toBe(200);
      expect((await res.arrayBuffer()).byteLength, asset).toBeGreaterThan(0);
    }
    // The page's own script starts swagger-ui on this document.
    const starter = assets.find((asset) => asset.endsWith('/folio-docs.js'))!;
    expect(await (await fetch(new URL(starter, server.url))).text()).toContain("url: '/api/openapi.json'");
    // Nothing else of the package is served.
    expect((await fetch(`${server.url}/api/docs/static/package.json`)).status).toBe(404);
    expect((await fetch(`${server.url}/api/docs/static/..%2fpackage.json`)).status).toBe(404);
  });
});
