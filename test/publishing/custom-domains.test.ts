/**
 * Custom domains over HTTP: syntax checks, TXT verification through an injected resolver,
 * the site served at `/` by the Host header once verified, and the on-demand TLS `ask`.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TxtResolver } from '../../src/services/publishing/custom-domains.js';
import type { TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { createPage, createWorkspace, grantRole, type TestWorkspace } from '../helpers/workspace-access.js';
import { setSettings, startPublishing } from './publishing-helpers.js';

/** TXT answers the tests control; an unknown name fails like NXDOMAIN. */
const txt = new Map<string, string[][]>();
const resolver: TxtResolver = {
  resolveTxt: async (name) => {
    const records = txt.get(name);
    if (!records) throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    return records;
  },
};

let server: TestServer;
let owner: TestUser;
let viewer: TestUser;
let ws: TestWorkspace;
let other: TestWorkspace;

/** A GET with an arbitrary Host header (fetch does not let a caller set Host). */
function hostGet(path: string, host: string, method = 'GET', body?: string) {
  const url = new URL(server.url);
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>(
    (resolve, reject) => {
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          path,
          method,
          headers: { host, ...(body ? { 'content-type': 'application/json' } : {}) },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    },
  );
}

const domainUrl = (w = ws) => `/api/v1/workspaces/${w.id}/custom-domain`;

beforeAll(async () => {
  server = await startPublishing({ txtResolver: resolver });
  owner = await registerUser(server);
  viewer = await registerUser(server);
  ws = await createWorkspace(server, owner, 'branded');
  other = await createWorkspace(server, owner, 'other-site');
  await grantRole(server, ws, viewer, 'viewer');
  await createPage(server, owner, ws, 'index.md', {
    title: 'Branded home',
    body: 'See [[guides/setup]].',
    publish: true,
  });
  await createPage(server, owner, ws, 'guides/setup.md', {
    title: 'Setup',
    body: 'Set it up.',
    publish: true,
  });
  await setSettings(server, owner, ws, { public_site: true });
});

afterAll(() => server.close());

describe('custom domains', () => {
  it('refuses malformed domains with 400 and non-admins with 403', async () => {
    for (const domain of [
      'not a domain',
      'https://docs.example.com',
      'localhost',
      '10.0.0.1',
      'a..b.com',
      'nodot',
      '-x.example.com',
    ]) {
      const res = await server.request('PUT', domainUrl(), { token: owner.token, body: { domain } });
      expect(res.status, domain).toBe(400);
      expect(res.body.error).toBe('VALIDATION_ERROR');
      expect(res.body.details.field).toBe('domain');
    }
    expect((await server.request('PUT', domainUrl(), { token: owner.token, body: {} })).status).toBe(400);
    const viewerPut = await server.request('PUT', domainUrl(), {
      token: viewer.token,
      body: { domain: 'docs.example.com' },
    });
    expect(viewerPut.status).toBe(403);
    expect((await server.request('GET', domainUrl(), { token: owner.token })).status).toBe(404);
  });

  it('stays pending until the TXT record matches, then serves the site at / by Host', async () => {
    const put = await server.request('PUT', domainUrl(), {
      token: owner.token,
      body: { domain: 'Docs.Example.com.' },
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      domain: 'docs.example.com',
      status: 'pending',
      verification: {
        type: 'TXT',
        name: '_folio-verify.docs.example.com',
        value: expect.stringMatching(/^folio-verify=/),
      },
      verified_at: null,
    });
    expect((await server.request('GET', '/api/custom-domains/allowed?domain=docs.example.com')).status).toBe(
      404,
    );
    expect((await hostGet('/guides/setup', 'docs.example.com')).status).toBe(404);

    txt.set('_folio-verify.docs.example.com', [['unrelated'], [put.body.verification.value]]);
    const got = await server.request('GET', domainUrl(), { token: owner.token });
    expect(got.body.status).toBe('verified');
    expect(got.body.verified_at).toEqual(expect.any(String));
    const allowed = await server.request('GET', '/api/custom-domains/allowed?domain=docs.example.com');
    expect(allowed.status).toBe(200);
    expect((await server.request('GET', '/api/custom-domains/allowed?domain=other.example.com')).status).toBe(
      404,
    );
    expect((await server.request('GET', '/api/custom-domains/allowed')).status).toBe(404);

    const home = await hostGet('/', 'docs.example.com');
    expect(home.status).toBe(200);
    expect(home.text).toContain('Branded home');
    expect(home.text).toContain('<a class="wikilink" href="/guides/setup">');
    expect(home.text).toMatch(/<link rel="stylesheet" href="\/_assets\/theme-default-[0-9a-f]+\.css">/);
    const page = await hostGet('/guides/setup', 'docs.example.com:443');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<link rel="canonical" href="https://docs.example.com/guides/setup">');
    const sitemap = await hostGet('/sitemap.xml', 'docs.example.com');
    expect(sitemap.text).toContain('<loc>https://docs.example.com/guides/setup</loc>');
    // The site footer's consent form still reaches the consent endpoint on the domain.
    const consent = await hostGet('/api/analytics/consent', 'docs.example.com', 'POST', '{"consent":false}');
    expect(consent.status).toBe(200);
    // The instance's own host keeps its paths.
    expect((await server.request('GET', '/p/branded/guides/setup')).status).toBe(200);
  });

  it('gives a domain to one workspace only, and stops serving it once removed', async () => {
    const taken = await server.request('PUT', domainUrl(other), {
      token: owner.token,
      body: { domain: 'docs.example.com' },
    });
    expect(taken.status).toBe(409);
    expect((await server.request('DELETE', domainUrl(), { token: viewer.token })).status).toBe(403);
    expect((await server.request('DELETE', domainUrl(), { token: owner.token })).status).toBe(204);
    expect((await server.request('GET', '/api/custom-domains/allowed?domain=docs.example.com')).status).toBe(
      404,
    );
    expect((await hostGet('/guides/setup', 'docs.example.com')).status).toBe(404);
  });
});
