import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/databases.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { createPage, createWorkspace, grantRole, type TestWorkspace } from '../helpers/workspace-access.js';

/**
 * `GET /api/v1/workspaces/:id/search` end to end: pages written through the content API
 * are found through the search API, on each database.
 */
describeEachDatabase('search over HTTP on $name', (target) => {
  let server: TestServer;
  let cleanup: () => Promise<void>;
  let owner: TestUser;
  let viewer: TestUser;
  let outsider: TestUser;
  let ws: TestWorkspace;
  let other: TestWorkspace;

  const search = (user: TestUser, query: string, workspace = ws.id) =>
    server.request('GET', `/api/v1/workspaces/${workspace}/search?${query}`, { token: user.token });

  beforeAll(async () => {
    const prepared = await target.prepare();
    cleanup = prepared.cleanup;
    server = await startServer({
      env: prepared.env,
      ...(prepared.pgSchema ? { pgSchema: prepared.pgSchema } : {}),
    });
    [owner, viewer, outsider] = [
      await registerUser(server),
      await registerUser(server),
      await registerUser(server),
    ];
    ws = await createWorkspace(server, owner, `search-${target.name}-a`);
    other = await createWorkspace(server, owner, `search-${target.name}-b`);
    await grantRole(server, ws, viewer, 'viewer');
    await createPage(server, owner, ws, 'guides/body-match', {
      title: 'Operations guide',
      body: 'We deploy the zeppelin cluster every Tuesday.',
    });
    await createPage(server, owner, ws, 'guides/title-match', {
      title: 'Zeppelin cluster',
      body: 'Everything about the cluster.',
    });
    await createPage(server, owner, ws, 'security/xss', {
      title: 'Sanitizing',
      body: 'A page quoting `<script>alert("owned")</script>` & other markup must stay inert.',
    });
    await createPage(server, owner, ws, 'ops/rollouts', {
      title: 'Rollout handbook',
      body:
        '## Blue-green deploys\n\nSee [[Configuration reference]] and [the runbook](runbook.md).\n\n' +
        '![](../uploads/x.png)\n\n```bash\nkubectl rollout undo\n```\n',
    });
    await createPage(server, owner, other, 'secret', { title: 'Zeppelin secret plans', body: 'zeppelin' });
  });
  afterAll(async () => {
    await server?.close();
    await cleanup?.();
  });

  it('answers the contract shape, best match first: a title match above a body match', async () => {
    const res = await search(owner, 'q=zeppelin');
    expect(res.status).toBe(200);
    expect(res.body.query).toBe('zeppelin');
    expect(res.body.total).toBe(2);
    expect(res.body.results.map((r: { path: string }) => r.path)).toEqual([
      'guides/title-match.md',
      'guides/body-match.md',
    ]);
    const [first, second] = res.body.results;
    expect(Object.keys(first).sort()).toEqual(['page_id', 'path', 'score', 'snippet', 'title']);
    expect(first.title).toBe('Zeppelin cluster');
    expect(first.score).toBeGreaterThan(second.score);
    expect(second.snippet).toContain('<mark>zeppelin</mark>');
    expect(res.headers.get('x-ratelimit-limit')).toBe('60');
  });

  it('escapes HTML in snippets and keeps only <mark> as markup', async () => {
    const res = await search(owner, 'q=script');
    expect(res.status).toBe(200);
    const hit = res.body.results.find((r: { path: string }) => r.path === 'security/xss.md');
    expect(hit.snippet).toContain('<mark>');
    expect(hit.snippet).toContain('&lt;');
    expect(hit.snippet).not.toMatch(/<script/i);
    expect(hit.snippet.replace(/<\/?mark>/g, '')).not.toMatch(/[<>]/);
  });

  it('indexes and quotes the text a reader sees, not the Markdown syntax', async () => {
    const snippetOf = async (q: string) => {
      const res = await search(owner, `q=${encodeURIComponent(q)}`);
      expect(res.status).toBe(200);
      return res.body.results.find((r: { path: string }) => r.path === 'ops/rollouts.md')?.snippet as
        string | undefined;
    };
    const heading = await snippetOf('blue-green');
    expect(heading).toContain('<mark>Blue</mark>');
    expect(heading).not.toContain('##');
    const wikilink = await snippetOf('configuration');
    expect(wikilink).toContain('See <mark>Configuration</mark> reference and the runbook');
    expect(wikilink).not.toMatch(/\[|\]|runbook\.md|uploads|x\.png/);
    const code = await snippetOf('kubectl');
    expect(code).toContain('<mark>kubectl</mark> rollout undo');
    expect(code).not.toContain('```');
    // The fence's language and the image's file name are syntax, not text.
    expect(await snippetOf('bash')).toBeUndefined();
    expect(await snippetOf('png')).toBeUndefined();
    // Titles stay searchable.
    expect(await snippetOf('handbook')).toBeDefined();
  });

  it('indexes a long page as the text a reader sees too (parsed in the render workers)', async () => {
    // Over 64 KB of Markdown: reduced to plain text off the event loop, with the same result.
    const filler = 'Plain filler sentence for a long page. '.repeat(40);
    const body =
      `${filler}\n\n`.repeat(60) +
      '## Numbat habitats\n\nSee [[Wildlife atlas]] and ![map](../uploads/numbat.png).\n';
    expect(body.length).toBeGreaterThan(64 * 1024);
    await createPage(server, owner, ws, 'long/atlas', { title: 'Long atlas', body });
    const res = await search(owner, 'q=numbat');
    expect(res.status).toBe(200);
    const hit = res.body.results.find((r: { path: string }) => r.path === 'long/atlas.md');
    expect(hit?.snippet).toContain('<mark>Numbat</mark> habitats');
    expect(hit?.snippet).not.toMatch(/##|\[|numbat\.png/);
    expect((await search(owner, 'q=wildlife')).body.results[0]?.snippet).toContain(
      'See <mark>Wildlife</mark> atlas',
    );
  });

  it("never returns another workspace's pages", async () => {
    const res = await search(owner, 'q=secret');
    expect(res.body).toMatchObject({ total: 0, results: [] });
    const inOther = await search(owner, 'q=zeppelin', other.slug);
    expect(inOther.body.results.map((r: { path: string }) => r.path)).toEqual(['secret.md']);
  });

  it('lets a viewer search and hides the workspace from an outsider', async () => {
    expect((await search(viewer, 'q=zeppelin')).body.total).toBe(2);
    const res = await search(outsider, 'q=zeppelin');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: 'NOT_FOUND' });
    expect((await server.request('GET', `/api/v1/workspaces/${ws.id}/search?q=zeppelin`)).status).toBe(401);
  });

  it('requires q and bounds limit', async () => {
    for (const query of ['', 'q=', 'q=%20%20', 'limit=5']) {
      const res = await search(owner, query);
      expect(res.status, query).toBe(400);
      expect(res.body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field: 'q' } });
      expect(res.body.request_id).toBeTruthy();
    }
    for (const limit of ['101', '0', '-1', 'abc', '2.5']) {
      const res = await search(owner, `q=zeppelin&limit=${limit}`);
      expect(res.status, limit).toBe(400);
      expect(res.body.details.field).toBe('limit');
    }
    const one = await search(owner, 'q=zeppelin&limit=1');
    expect(one.body.results).toHaveLength(1);
    expect(one.body.total).toBe(2);
    expect((await search(owner, 'q=zeppelin&limit=100')).status).toBe(200);
  });

  it('answers query syntax characters without errors', async () => {
    for (const q of [
      '"',
      '*',
      'NEAR(',
      '-',
      ':',
      'zeppelin"',
      'NEAR(zeppelin, cluster)',
      '-zeppelin',
      'title:zeppelin',
      "'",
      '&|!()',
    ]) {
      const res = await search(owner, `q=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(200);
      expect(res.body.total, q).toBe(res.body.results.length);
    }
    expect((await search(owner, `q=${encodeURIComponent('zeppelin*')}`)).body.total).toBe(2);
  });

  it('finds a page by a prefix of its last word, and reflects edits and deletes', async () => {
    expect((await search(owner, 'q=zepp')).body.total).toBe(2);
    await createPage(server, owner, ws, 'later', { title: 'Quokka habitats' });
    expect((await search(owner, 'q=quokka')).body.results[0].path).toBe('later.md');
    expect(
      (await server.request('DELETE', `/api/v1/content/${ws.slug}/later.md`, { token: owner.token })).status,
    ).toBe(204);
    expect((await search(owner, 'q=quokka')).body.total).toBe(0);
  });
});
