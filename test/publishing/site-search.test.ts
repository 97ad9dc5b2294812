/**
 * The reader's instant search over HTTP (`GET /p/<ws>/search.json`): sections grouped by
 * page with the heading and anchor each hit lands on, prefix and typo matching, weights,
 * drafts, members-only sites, versions, ETags and the published-site rate limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/databases.js';
import type { TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { createPage, createWorkspace, grantRole, type TestWorkspace } from '../helpers/workspace-access.js';
import { editPage, get, setSettings, startPublishing } from './publishing-helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON */

const search = async (server: TestServer, path: string, headers: Record<string, string> = {}) => {
  const res = await get(server, path, headers);
  return { ...res, body: res.status === 200 ? JSON.parse(res.text) : null };
};

describeEachDatabase('site search.json ($name)', (target) => {
  let server: TestServer;
  let owner: TestUser;
  let viewer: TestUser;
  let ws: TestWorkspace;
  let priv: TestWorkspace;

  beforeAll(async () => {
    server = await startPublishing({}, target);
    owner = await registerUser(server);
    viewer = await registerUser(server);
    ws = await createWorkspace(server, owner, 'manual');
    priv = await createWorkspace(server, owner, 'internal');
    await grantRole(server, priv, viewer, 'viewer');
    const page = (w: TestWorkspace, path: string, fields: Parameters<typeof createPage>[4]) =>
      createPage(server, owner, w, path, fields);
    await page(ws, 'index.md', {
      title: 'Manual',
      body: '# Manual\n\nWelcome to the manual.\n',
      publish: true,
    });
    await page(ws, 'guides/deployment.md', {
      title: 'Deployment',
      body:
        '# Deployment\n\nShipping the service to production.\n\n' +
        '## Docker images\n\nBuild the container with the provided Dockerfile.\n\n' +
        '## Kubernetes cluster\n\nApply the manifests; the rollout waits for readiness probes.\n\n' +
        '### Readiness & liveness\n\nProbes answer on the health port.\n',
      publish: true,
    });
    await page(ws, 'guides/monitoring.md', {
      title: 'Monitoring',
      body: 'Dashboards for the service.\n\n## Alerts\n\nAlerts fire after a failed deployment of a cluster.\n',
      publish: true,
    });
    await page(ws, 'guides/draft.md', { title: 'Zeppelin plans', body: 'Secret zeppelin words.\n' });
    await page(priv, 'index.md', { title: 'Internal', body: 'Quarterly zeppelin numbers.\n', publish: true });
    await setSettings(server, owner, ws, { public_site: true });
  });

  afterAll(() => server.close());

  it('finds sections grouped by page, each hit naming its heading and anchor', async () => {
    const res = await search(server, '/p/manual/search.json?q=container');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.body.query).toBe('container');
    expect(res.body.version).toBe('latest');
    expect(res.body.total).toBe(1);
    const [first] = res.body.results;
    expect(first).toMatchObject({
      path: 'guides/deployment.md',
      title: 'Deployment',
      href: '/p/manual/guides/deployment',
    });
    expect(first.hits).toEqual([
      {
        heading: 'Docker images',
        anchor: 'docker-images',
        href: '/p/manual/guides/deployment#docker-images',
        snippet: 'Build the <mark>container</mark> with the provided Dockerfile.',
      },
    ]);
    // The anchor exists on the page the hit opens.
    const html = (await get(server, '/p/manual/guides/deployment')).text;
    expect(html).toContain('id="docker-images"');
    expect(html).toContain('id="readiness-liveness"');
  });

  it('matches the last word as a prefix while typing and forgives a typo', async () => {
    const prefix = await search(server, '/p/manual/search.json?q=deplo');
    expect(prefix.body.results.map((r: any) => r.path)).toEqual([
      'guides/deployment.md',
      'guides/monitoring.md',
    ]);
    const typo = await search(server, '/p/manual/search.json?q=kubernetis');
    expect(typo.body.results[0].hits[0]).toMatchObject({
      heading: 'Kubernetes cluster',
      anchor: 'kubernetes-cluster',
    });
    const deep = await search(server, '/p/manual/search.json?q=health%20port');
    expect(deep.body.results[0].hits[0].anchor).toBe('readiness-liveness');
  });

  it('weighs titles over headings over body text', async () => {
    // "Deployment" is a title, "cluster" a heading there and body text in Monitoring.
    const title = await search(server, '/p/manual/search.json?q=deployment');
    expect(title.body.results[0]).toMatchObject({ path: 'guides/deployment.md' });
    // A title match is the page itself: no heading, no anchor.
    expect(title.body.results[0].hits[0]).toMatchObject({
      heading: null,
      anchor: null,
      href: '/p/manual/guides/deployment',
    });
    const heading = await search(server, '/p/manual/search.json?q=cluster');
    expect(heading.body.results.map((r: any) => r.path)).toEqual([
      'guides/deployment.md',
      'guides/monitoring.md',
    ]);
    expect(heading.body.results[1].hits[0].anchor).toBe('alerts');
  });

  it('never finds drafts and answers an empty query with nothing', async () => {
    expect((await search(server, '/p/manual/search.json?q=zeppelin')).body).toMatchObject({
      total: 0,
      results: [],
    });
    expect((await search(server, '/p/manual/search.json')).body).toEqual({
      query: '',
      version: 'latest',
      total: 0,
      results: [],
    });
  });

  it('follows the site’s visibility: 404 for a members-only site unless the reader is a member', async () => {
    expect((await get(server, '/p/internal/search.json?q=zeppelin')).status).toBe(404);
    expect((await get(server, '/p/nowhere/search.json?q=zeppelin')).status).toBe(404);
    const member = await search(server, '/p/internal/search.json?q=zeppelin', {
      cookie: `folio_access=${viewer.token}`,
    });
    expect(member.status).toBe(200);
    expect(member.headers.get('cache-control')).toBe('private, no-cache');
    expect(member.body.results.map((r: any) => r.path)).toEqual(['index.md']);
  });

  it('answers 304 to a matching If-None-Match and sees edits at once', async () => {
    const first = await get(server, '/p/manual/search.json?q=dashboards');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"/);
    expect((await get(server, '/p/manual/search.json?q=dashboards', { 'if-none-match': etag })).status).toBe(
      304,
    );
    await editPage(
      server,
      owner,
      ws,
      'guides/monitoring.md',
      'Graphs for the service.\n\n## Alerts\n\nPager rules.\n',
    );
    const after = await search(server, '/p/manual/search.json?q=dashboards');
    expect(after.body.total).toBe(0);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect((await search(server, '/p/manual/search.json?q=pager')).body.results[0].hits[0].anchor).toBe(
      'alerts',
    );
  });

  it('searches the version being read', async () => {
    const created = await server.request('POST', `/api/v1/workspaces/${ws.id}/versions`, {
      token: owner.token,
      body: { slug: 'v1', name: '1.0' },
    });
    expect(created.status).toBe(201);
    await editPage(
      server,
      owner,
      ws,
      'guides/monitoring.md',
      'Graphs.\n\n## Alerts\n\nOscilloscope rules.\n',
    );
    const live = await search(server, '/p/manual/search.json?q=oscilloscope');
    expect(live.body.results.map((r: any) => r.href)).toEqual(['/p/manual/guides/monitoring']);
    const frozen = await search(server, '/p/manual/search.json?q=oscilloscope&version=v1');
    expect(frozen.body).toMatchObject({ version: 'v1', total: 0 });
    const pager = await search(server, '/p/manual/search.json?q=pager&version=v1');
    expect(pager.body.results[0].hits[0].href).toBe('/p/manual/v/v1/guides/monitoring#alerts');
    // The same under the version's own base, and `latest` for the live pages.
    const nested = await search(server, '/p/manual/v/v1/search.json?q=pager');
    expect(nested.body.results[0].href).toBe('/p/manual/v/v1/guides/monitoring');
    const latest = await search(server, '/p/manual/search.json?q=oscilloscope&version=latest');
    expect(latest.body.total).toBe(1);
    expect((await get(server, '/p/manual/search.json?q=pager&version=v9')).status).toBe(404);
  });
});

describe('site search.json rate limit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startPublishing({ rateLimits: { publishedDocs: { limit: 2 } } });
    const owner = await registerUser(server);
    const ws = await createWorkspace(server, owner, 'limited');
    await createPage(server, owner, ws, 'index.md', { title: 'Home', body: 'Hello.', publish: true });
    await setSettings(server, owner, ws, { public_site: true });
  });
  afterAll(() => server.close());

  it('counts against the published site’s per-IP limit', async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await get(server, '/p/limited/search.json?q=hello')).status);
    expect(statuses).toEqual([200, 200, 429]);
  });
});
