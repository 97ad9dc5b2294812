/**
 * Every operation under /api/ in /api/openapi.json says what a success answers: a 2xx with
 * content (a JSON record, or a file's content type) or a 204 with none. Read through real
 * HTTP from a Cloud edition server, so the billing, GDPR and platform routes are in it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

interface Operation {
  deprecated?: boolean;
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
type Document = { paths: Record<string, Record<string, Operation>> };

/**
 * The older layouts' routes (docs/compatibility.md) keep no response schema: they are
 * deprecated, marked so in the document, and answer the shapes of their layout, which the
 * current operations they point to describe.
 */
const COMPATIBILITY_ROUTES: ReadonlySet<string> = new Set([
  'POST /api/v1/auth/register',
  'POST /api/v1/auth/login',
  'POST /api/v1/auth/refresh',
  'POST /api/v1/auth/password-reset',
  'POST /api/v1/auth/password-reset/confirm',
  'POST /api/v1/auth/ws-ticket',
  'GET /api/v1/auth/callback/{provider}',
  'GET /api/v1/workspaces/{id}/pages',
  'POST /api/v1/workspaces/{id}/pages',
  'GET /api/v1/workspaces/{id}/pages/{page_id}',
  'PUT /api/v1/workspaces/{id}/pages/{page_id}',
  'DELETE /api/v1/workspaces/{id}/pages/{page_id}',
  'DELETE /api/v1/workspaces/{id}/members/{user_id}',
  'PUT /api/v1/workspaces/{id}/members/{user_id}/role',
  'POST /api/v1/webhooks/{host}',
  'POST /api/git/webhook',
  'POST /api/v1/workspaces/{id}/assets',
  'POST /api/v1/content/{workspace}/assets',
  'GET /api/v1/search',
]);

/**
 * Operations a browser is sent to and that only ever redirect it onwards (an identity
 * provider's callback): they declare the redirect, a 3xx, instead of a 2xx.
 */
const REDIRECT_ONLY: ReadonlySet<string> = new Set(['GET /api/auth/oidc/{provider}/callback']);

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** `METHOD /path` of each operation under /api/ that declares no 2xx with content and no 204. */
function withoutSuccessAnswer(doc: Document): string[] {
  const missing: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!path.startsWith('/api/')) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const name = `${method.toUpperCase()} ${path}`;
      if (COMPATIBILITY_ROUTES.has(name)) continue;
      const answered = REDIRECT_ONLY.has(name) ? declaresRedirect(operation) : declaresSuccess(operation);
      if (!answered) missing.push(name);
    }
  }
  return missing;
}

function declaresSuccess(operation: Operation): boolean {
  return Object.entries(operation.responses ?? {}).some(([status, response]) => {
    if (status === '204') return response.content === undefined;
    if (!/^2\d\d$/.test(status)) return false;
    return Object.values(response.content ?? {}).some((media) => media.schema !== undefined);
  });
}

function declaresRedirect(operation: Operation): boolean {
  return Object.keys(operation.responses ?? {}).some((status) => /^3\d\d$/.test(status));
}

describe('OpenAPI document: success answers', () => {
  let server: TestServer;
  let doc: Document;

  beforeAll(async () => {
    server = await startServer({ env: { EDITION: 'cloud' } });
    const res = await fetch(`${server.url}/api/openapi.json`);
    expect(res.status).toBe(200);
    doc = (await res.json()) as Document;
  });
  afterAll(async () => {
    await server.close();
  });

  it('declares a 2xx answer with content, or a 204, for every current /api operation', () => {
    // The Cloud edition's routes are in the document being checked.
    expect(doc.paths['/api/v1/billing/plans']?.get).toBeDefined();
    expect(withoutSuccessAnswer(doc)).toEqual([]);
  });

  it('lists the compatibility routes it skips by their real names', () => {
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([path, item]) =>
        METHODS.filter((m) => item[m]).map((m) => `${m.toUpperCase()} ${path}`),
      ),
    );
    for (const name of COMPATIBILITY_ROUTES) expect(documented.has(name), name).toBe(true);
  });

  it('reports an operation whose success answer is missing or has no content', () => {
    const plans = doc.paths['/api/v1/billing/plans']!.get!;
    const withoutContent: Operation = { ...plans, responses: { 200: {} } };
    const without2xx: Operation = { ...plans, responses: {} };
    const broken = (operation: Operation): Document => ({
      paths: { ...doc.paths, '/api/v1/billing/plans': { get: operation } },
    });
    expect(withoutSuccessAnswer(broken(withoutContent))).toEqual(['GET /api/v1/billing/plans']);
    expect(withoutSuccessAnswer(broken(without2xx))).toEqual(['GET /api/v1/billing/plans']);
  });
});
