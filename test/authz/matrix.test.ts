/**
 * The authorisation matrix: every route the server registers (collected by
 * the `onRoute` hook into `app.routeTable`), called by every kind of caller,
 * against an explicit expectation per route. It fails on an unexpected 2xx
 * (a viewer writing, an outsider reading), on a 403 where the caller cannot
 * read the workspace (that must be 404, so existence does not leak), on any
 * 5xx, and on a route the table does not mention: a new route cannot be
 * forgotten. Allowed GETs must succeed, which proves the parameters are real;
 * allowed writes are sent only where they are harmless to the fixture.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/domain/policy.js';
import { RATE_BUCKETS } from '../../src/ratelimit/buckets.js';
import { startFakeAiServer, type FakeAiServer } from '../helpers/fake-ai-server.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { ACTORS, type ActorName, buildFixture, type Fixture, PNG } from './matrix-fixture.js';
import { type Op, type Outcome, ROUTES, type RouteSpec } from './matrix-routes.js';

/** API-key scopes, written out rather than imported, so the test does not share the code it checks. */
const KEY_GRANTS: Record<string, readonly Op[]> = {
  'key:read': ['read'],
  'key:write': ['read', 'write'],
  'key:delete': ['read', 'delete'],
  'key:admin': ['read', 'write', 'delete'],
};
const RANK: Record<Role, number> = { viewer: 0, commenter: 1, editor: 2, admin: 3, superadmin: 4 };

const opOf = (method: string): Op => (method === 'GET' ? 'read' : method === 'DELETE' ? 'delete' : 'write');

function expected(spec: RouteSpec, method: string, actor: ActorName): Outcome | number {
  const override = spec.except?.[actor];
  if (override !== undefined) return override;
  const access = spec.access;
  if ('public' in access) return 'allow';
  if ('all' in access) return access.all;
  if (actor === 'anonymous') return 401;
  const isKey = actor.startsWith('key:');
  if ('user' in access) {
    if (isKey && access.sessionOnly) return 403;
    return isKey && !KEY_GRANTS[actor]!.includes(spec.op ?? opOf(method)) ? 403 : 'allow';
  }
  if (actor === 'outsider') return 404;
  const role: Role = isKey ? 'superadmin' : (actor as Role);
  if (RANK[role] < RANK[access.role]) return 403;
  return isKey && !KEY_GRANTS[actor]!.includes(spec.op ?? opOf(method)) ? 403 : 'allow';
}

const CODES: Record<number, string> = { 401: 'UNAUTHORIZED', 403: 'FORBIDDEN', 404: 'NOT_FOUND' };

/** A table key names its route, then maybe the older layout it asks for: `GET /x [Folio-Layout: C]`. */
const routeOf = (key: string): string => key.replace(/ \[.*\]$/, '');

describe('authorisation matrix', () => {
  let fake: FakeAiServer;
  let server: TestServer;
  let f: Fixture;
  let registered: Set<string>;

  beforeAll(async () => {
    fake = await startFakeAiServer();
    // Every bucket lifted: the matrix sends hundreds of requests for one organization.
    const lifted = Object.fromEntries(Object.keys(RATE_BUCKETS).map((b) => [b, { limit: 1_000_000 }]));
    server = await startServer({
      env: {
        AI_PROVIDER: 'openai',
        AI_BASE_URL: fake.url,
        AI_API_KEY: 'sk-matrix',
        AI_MODEL: 'matrix-model',
        // Passkeys on, so their routes answer by who calls rather than 404 for everyone.
        WEBAUTHN_RP_ID: 'localhost',
        WEBAUTHN_RP_ORIGINS: 'http://localhost',
        // A webhook on loopback, so its routes have a real target.
        WEBHOOK_ALLOW_PRIVATE_HOSTS: 'true',
      },
      rateLimits: lifted,
    });
    f = await buildFixture(server);
    registered = new Set(
      server.folio.app.routeTable
        // Fastify adds a HEAD route for every GET; it runs the GET's handler.
        .filter((r) => r.method !== 'HEAD')
        .map((r) => `${r.method} ${r.url}`),
    );
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  async function call(method: string, url: string, spec: RouteSpec, actor: ActorName) {
    const headers: Record<string, string> = { ...spec.headers };
    if (actor !== 'anonymous') headers.authorization = `Bearer ${f.tokens[actor]}`;
    let body: BodyInit | undefined;
    if (spec.multipart) {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'matrix.png');
      body = form;
    } else if (spec.body) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(spec.body(f));
    }
    const res = await fetch(server.url + url, { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    let error: unknown;
    try {
      const parsed = JSON.parse(text) as { error?: unknown; code?: unknown };
      // Layout C's nested error object and Layout B's problem details (asked for with Folio-Layout).
      error =
        typeof parsed.error === 'object' && parsed.error !== null
          ? (parsed.error as { code?: unknown }).code
          : (parsed.error ?? parsed.code);
    } catch {
      error = undefined;
    }
    return { status: res.status, error, text: text.slice(0, 200) };
  }

  it('has an expectation for every registered route, and no stale ones', () => {
    const unlisted = [...registered].filter((r) => !(r in ROUTES));
    expect(unlisted, 'routes missing from the matrix table').toEqual([]);
    const stale = Object.keys(ROUTES).filter((r) => !registered.has(routeOf(r)));
    expect(stale, 'table entries for routes that are not registered').toEqual([]);
  });

  it.each(Object.keys(ROUTES))('%s', async (key) => {
    expect(registered.has(routeOf(key)), `${key} is not registered`).toBe(true);
    const spec = ROUTES[key]!;
    const [method, pattern] = routeOf(key).split(' ') as [string, string];
    const failures: string[] = [];
    const actors = 'public' in spec.access ? (['anonymous'] as const) : ACTORS;
    for (const actor of actors) {
      const want = expected(spec, method, actor);
      const isWrite = method !== 'GET';
      if (want === 'allow' && isWrite && !spec.callAllowed && !('public' in spec.access)) continue;
      const url = spec.path ? spec.path(f) : pattern.replace(':workspace', f.ws.slug).replace(':id', f.ws.id);
      const got = await call(method, url, spec, actor);
      const line = `${actor}: expected ${want}, got ${got.status} ${got.text}`;
      if (got.status >= 500) failures.push(line);
      else if (want === 'allow') {
        if ('public' in spec.access) continue;
        if (!isWrite && (got.status < 200 || got.status > 299)) failures.push(line);
        if (isWrite && [401, 403, 404].includes(got.status)) failures.push(line);
      } else if (
        got.status !== want ||
        (!spec.html && CODES[want] !== undefined && got.error !== CODES[want])
      ) {
        failures.push(line);
      }
    }
    expect(failures).toEqual([]);
  });
});
