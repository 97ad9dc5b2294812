/**
 * Prometheus metrics over HTTP: who may read `/metrics`, the unauthenticated listener on
 * METRICS_PORT, and that page writes, searches, rate-limit refusals and requests move
 * their series, labelled by route pattern rather than raw path.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceDir } from '../../src/content/workspace-meta.js';
import { createBareRepo, fileUrl, makeTempDir, removeTempDir } from '../helpers/git-fixtures.js';
import { callTool, mcpOverHttp } from '../helpers/mcp.js';
import { freePort } from '../helpers/ports.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { sampleOf } from './prometheus-text.js';

/** Resolves once the workspace's tree has nothing left to commit. */
async function committed(dir: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const status = execFileSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' });
    if (status.trim() === '') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${dir} still has uncommitted changes`);
}

describe('metrics off (the default)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('has no /metrics route', async () => {
    const owner = await registerUser(server);
    const res = await server.request('GET', '/metrics', { token: owner.token });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('NOT_FOUND');
  });
});

describe('metrics on', () => {
  let server: TestServer;
  let owner: TestUser;
  let other: TestUser;
  let port: number;
  let remotes: string;

  beforeAll(async () => {
    port = await freePort();
    remotes = await makeTempDir('folio-metrics-');
    server = await startServer({
      env: {
        FF_METRICS: 'true',
        METRICS_PORT: String(port),
        ...{ GIT_ALLOW_FILE_REMOTES: 'true', GIT_FILE_REMOTE_ROOT: remotes, GIT_SYNC_INTERVAL: '0' },
      },
      rateLimits: { search: { limit: 3 } },
    });
    owner = await registerUser(server, { name: 'Platform Owner' });
    other = await registerUser(server);
  });
  afterAll(async () => {
    await server.close();
    await removeTempDir(remotes);
  });

  const scrape = async () => {
    const res = await server.request('GET', '/metrics', { token: owner.token });
    expect(res.status).toBe(200);
    return res.text;
  };
  const apiKey = async (user: TestUser, scopes: string[]) =>
    (
      await server.request('POST', '/api/v1/api-keys', {
        token: user.token,
        body: { name: 'scrape', scopes },
      })
    ).body.key as string;

  it('answers the platform owner only: 401 anonymous, 403 anyone else', async () => {
    expect((await server.request('GET', '/metrics')).status).toBe(401);
    const refused = await server.request('GET', '/metrics', { token: other.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('FORBIDDEN');

    const ok = await server.request('GET', '/metrics', { token: owner.token });
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(ok.text).toContain('# TYPE folio_http_requests_total counter');
    expect(ok.text).toContain('folio_process_cpu_seconds_total');
  });

  it('takes the platform owner’s admin or admin:read API key, not a narrower one or another user’s', async () => {
    for (const scope of ['admin', 'admin:read']) {
      const res = await server.request('GET', '/metrics', { token: await apiKey(owner, [scope]) });
      expect(res.status, scope).toBe(200);
    }
    expect((await server.request('GET', '/metrics', { token: await apiKey(owner, ['read']) })).status).toBe(
      403,
    );
    expect((await server.request('GET', '/metrics', { token: await apiKey(other, ['admin']) })).status).toBe(
      403,
    );
  });

  it('serves the same text without authentication on 127.0.0.1 at METRICS_PORT', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('# TYPE folio_page_changes_total counter');
    expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
  });

  it('counts a page write and times a search', async () => {
    const ws = (await server.request('GET', '/api/v1/workspaces', { token: owner.token })).body.data[0];
    const pageUrl = `/api/v1/content/${ws.slug}/guides/metered.md`;
    const before = await scrape();
    const created = await server.request('POST', pageUrl, {
      token: owner.token,
      body: { title: 'Metered', body: 'Counted.\n' },
    });
    expect(created.status).toBe(201);
    const updated = await server.request('PUT', pageUrl, {
      token: owner.token,
      body: { body: 'Counted twice.\n', lastKnownHash: created.body.content_hash },
    });
    expect(updated.status).toBe(200);
    const search = await server.request('GET', `/api/v1/workspaces/${ws.id}/search?q=counted`, {
      token: owner.token,
    });
    expect(search.status).toBe(200);
    const after = await scrape();

    const delta = (name: string, labels: Record<string, string> = {}) =>
      sampleOf(after, name, labels) - sampleOf(before, name, labels);
    expect(delta('folio_page_changes_total', { change: 'created' })).toBe(1);
    expect(delta('folio_page_changes_total', { change: 'updated' })).toBe(1);
    expect(delta('folio_search_duration_seconds_count', { scope: 'workspace' })).toBe(1);

    // Requests are labelled by route pattern: the page's own path never becomes a label.
    const route = '/api/v1/content/:workspace/*';
    expect(delta('folio_http_requests_total', { route, method: 'PUT', status: '200' })).toBe(1);
    expect(after).not.toContain('metered.md');
    expect(after).not.toContain(ws.slug);
  });

  it('counts rate-limit refusals by bucket', async () => {
    const ws = (await server.request('GET', '/api/v1/workspaces', { token: owner.token })).body.data[0];
    const before = sampleOf(await scrape(), 'folio_rate_limited_total', { bucket: 'search' });
    let refused = 0;
    for (let i = 0; i < 6; i++) {
      const res = await server.request('GET', `/api/v1/workspaces/${ws.id}/search?q=x`, {
        token: owner.token,
      });
      if (res.status === 429) refused++;
    }
    expect(refused).toBeGreaterThan(0);
    expect(sampleOf(await scrape(), 'folio_rate_limited_total', { bucket: 'search' }) - before).toBe(refused);
  });

  it('counts a sync run by trigger and result', async () => {
    const ws = (await server.request('GET', '/api/v1/workspaces', { token: owner.token })).body.data[0];
    const bare = await createBareRepo(remotes, 'metered');
    const connected = await server.request('PUT', `/api/v1/workspaces/${ws.id}/git-remote`, {
      token: owner.token,
      body: { git_remote: fileUrl(bare), git_branch: 'main' },
    });
    expect(connected.status).toBe(200);
    const labels = { trigger: 'manual', result: 'completed' };
    const before = sampleOf(await scrape(), 'folio_git_sync_runs_total', labels);
    const sync = await server.request('POST', `/api/v1/workspaces/${ws.id}/sync`, { token: owner.token });
    expect(sync.body.status).toBe('completed');
    const after = await scrape();
    expect(sampleOf(after, 'folio_git_sync_runs_total', labels) - before).toBe(1);
    expect(sampleOf(after, 'folio_git_sync_duration_seconds_count', { result: 'completed' })).toBeGreaterThan(
      0,
    );
    expect(sampleOf(after, 'folio_git_open_conflicts')).toBe(0);
  });

  it('counts published-site requests, render-cache results and MCP tool calls', async () => {
    const ws = (await server.request('GET', '/api/v1/workspaces', { token: owner.token })).body.data[0];
    await server.request('POST', `/api/v1/content/${ws.slug}/public.md`, {
      token: owner.token,
      body: { title: 'Public', body: 'Read me.\n', publish: true },
    });
    await server.request('PUT', `/api/v1/workspaces/${ws.id}/admin/settings`, {
      token: owner.token,
      body: { public_site: true },
    });
    // The site's cache keys carry the git revision: wait for the page's auto-commit, or it may
    // land between the two reads and make the second a miss.
    await committed(workspaceDir(server.dataDir, ws.id));
    const before = await scrape();
    for (let i = 0; i < 2; i++) expect((await fetch(`${server.url}/p/${ws.slug}/public`)).status).toBe(200);
    const client = await mcpOverHttp(`${server.url}/mcp`, await apiKey(owner, ['read']));
    expect((await callTool(client, 'svc_list_workspaces')).isError).toBe(false);
    expect(
      (await callTool(client, 'svc_read_page', { workspace: ws.slug, path: 'missing.md' })).isError,
    ).toBe(true);
    await client.close();
    const after = await scrape();

    const delta = (name: string, labels: Record<string, string>) =>
      sampleOf(after, name, labels) - sampleOf(before, name, labels);
    expect(delta('folio_site_requests_total', { status: '200' })).toBe(2);
    expect(delta('folio_site_render_cache_total', { result: 'hit' })).toBeGreaterThanOrEqual(1);
    expect(delta('folio_mcp_tool_calls_total', { tool: 'list_workspaces', result: 'ok' })).toBe(1);
    expect(delta('folio_mcp_tool_calls_total', { tool: 'read_page', result: 'not_found' })).toBe(1);
  });
});
