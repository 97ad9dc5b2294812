/**
 * Shape negotiation and deprecation through real HTTP: the current error body stays the
 * default, RFC 7807 with `Accept: application/problem+json`, Layout C's nested error and
 * Layout B's names with `Folio-Layout`; `/health` and `/ready` and B's health; and every
 * compatibility route marked deprecated in the OpenAPI document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { expectCurrent, expectDeprecated } from './compat-helpers.js';

/** The compatibility operations the document must mark deprecated, as `method path`. */
const COMPAT_OPERATIONS = [
  'get /health',
  'get /ready',
  'post /api/v1/auth/register',
  'post /api/v1/auth/login',
  'post /api/v1/auth/refresh',
  'post /api/v1/auth/password-reset',
  'post /api/v1/auth/password-reset/confirm',
  'post /api/v1/auth/ws-ticket',
  'get /api/v1/auth/callback/{provider}',
  'get /api/v1/workspaces/{id}/pages',
  'post /api/v1/workspaces/{id}/pages',
  'get /api/v1/workspaces/{id}/pages/{page_id}',
  'put /api/v1/workspaces/{id}/pages/{page_id}',
  'delete /api/v1/workspaces/{id}/pages/{page_id}',
  'delete /api/v1/workspaces/{id}/members/{user_id}',
  'put /api/v1/workspaces/{id}/members/{user_id}/role',
  'post /api/v1/webhooks/{host}',
  'post /api/git/webhook',
  'post /api/v1/workspaces/{id}/assets',
  'post /api/v1/content/{workspace}/assets',
  'get /api/v1/search',
];

describe('older layouts: errors, health and deprecation', () => {
  let server: TestServer;
  let user: TestUser;

  beforeAll(async () => {
    server = await startServer();
    user = await registerUser(server);
  });
  afterAll(async () => server.close());

  it('keeps the current error body by default', async () => {
    const res = await server.request('POST', '/api/v1/workspaces', { token: user.token, body: { name: 1 } });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({
      error: 'VALIDATION_ERROR',
      message: expect.any(String),
      request_id: expect.any(String),
    });
  });

  it('answers RFC 7807 problem details, with fields for validation, on Accept: application/problem+json', async () => {
    const headers = { accept: 'application/problem+json, application/json;q=0.5' };
    const invalid = await server.request('POST', '/api/auth/login', { headers, body: { email: 'x' } });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(invalid.body).toMatchObject({
      type: 'urn:folio:error:validation_error',
      title: 'Bad Request',
      status: 400,
      detail: expect.any(String),
      fields: [expect.objectContaining({ field: 'password', message: expect.any(String) })],
    });
    const missing = await server.request('GET', '/api/v1/workspaces/nope', { token: user.token, headers });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({
      type: 'urn:folio:error:not_found',
      title: 'Not Found',
      status: 404,
    });
    expect(missing.body.fields).toBeUndefined();
    // Also for errors raised before any route runs (authentication).
    const anonymous = await server.request('GET', '/api/auth/me', { token: 'not-a-token', headers });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ status: 401, type: 'urn:folio:error:unauthorized' });
  });

  it('answers Layout C’s nested error (BAD_REQUEST) and Layout B’s problem details on Folio-Layout', async () => {
    const c = await server.request('POST', '/api/auth/login', { headers: { 'Folio-Layout': 'C' }, body: {} });
    expect(c.status).toBe(400);
    expect(c.body).toEqual({
      error: { code: 'BAD_REQUEST', message: expect.any(String), details: expect.any(Object) },
    });
    const b = await server.request('GET', '/api/v1/workspaces/nope', {
      token: user.token,
      headers: { 'Folio-Layout': 'b' },
    });
    expect(b.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(b.body).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('serves /health and /ready (db and search), and Layout B’s health on Folio-Layout: B', async () => {
    const health = await server.request('GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok', version: expect.any(String) });
    expectDeprecated(health, '/api/health');
    const ready = await server.request('GET', '/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', db: 'ok', search: 'ok' });
    expectDeprecated(ready, '/api/ready');

    const b = await server.request('GET', '/api/health', { headers: { 'Folio-Layout': 'B' } });
    expect(b.body).toEqual({ status: 'ok', db: 'ok', git: 'ok', version: expect.any(String) });
    expectDeprecated(b, '/api/health');
    const current = await server.request('GET', '/api/health');
    expect(current.body).toEqual({ status: 'ok', version: expect.any(String) });
    expectCurrent(current);
  });

  it('answers 404 to the older webhooks while GIT_WEBHOOK_SECRET is not set', async () => {
    for (const url of ['/api/v1/webhooks/github', '/api/git/webhook']) {
      const res = await server.request('POST', url, { body: { ref: 'refs/heads/main' } });
      expect(res.status, url).toBe(404);
      expectDeprecated(res, '/api/git/webhook/');
    }
  });

  it('marks every compatibility route deprecated in the OpenAPI document, and no current one', async () => {
    const doc = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { deprecated?: boolean }>>;
    };
    for (const operation of COMPAT_OPERATIONS) {
      const [method, path] = operation.split(' ') as [string, string];
      expect(doc.paths[path]?.[method]?.deprecated, operation).toBe(true);
    }
    const deprecated = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => op.deprecated)
        .map(([method]) => `${method} ${path}`),
    );
    expect(deprecated.sort()).toEqual([...COMPAT_OPERATIONS].sort());
    // The header variants leave the current operations as they are.
    expect(doc.paths['/api/auth/register']?.post?.deprecated).toBeUndefined();
  });
});
