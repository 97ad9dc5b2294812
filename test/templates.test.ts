import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers/server.js';
import { registerUser, type TestUser } from './helpers/users.js';
import { createWorkspace, grantRole } from './helpers/workspace-access.js';

describe('templates', () => {
  let server: TestServer;
  let user: TestUser;

  beforeAll(async () => {
    server = await startServer();
    user = await registerUser(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('lists the six built-in templates in the list shape', async () => {
    const res = await server.request('GET', '/api/v1/templates', { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body.next_cursor).toBeNull();
    expect(res.body.data.map((t: { id: string }) => t.id)).toEqual([
      'how-to',
      'reference',
      'tutorial',
      'adr',
      'runbook',
      'changelog',
    ]);
    for (const t of res.body.data) {
      expect(Object.keys(t).sort()).toEqual(['description', 'id', 'name']);
      expect(t.name.length).toBeGreaterThan(3);
      expect(t.description.length).toBeGreaterThan(20);
    }
  });

  it('serves each template with a title, frontmatter and a Markdown body', async () => {
    const list = await server.request('GET', '/api/v1/templates', { token: user.token });
    for (const { id } of list.body.data) {
      const res = await server.request('GET', `/api/v1/templates/${id}`, { token: user.token });
      expect(res.status, id).toBe(200);
      const t = res.body;
      expect(Object.keys(t).sort()).toEqual(['body', 'description', 'frontmatter', 'id', 'name', 'title']);
      expect(t.frontmatter.title).toBe(t.title);
      expect(Array.isArray(t.frontmatter.tags)).toBe(true);
      expect(t.body).toMatch(/^# /);
      expect((t.body.match(/^## /gm) ?? []).length, id).toBeGreaterThanOrEqual(2);
      // The frontmatter is plain data: it survives a YAML round trip unchanged.
      expect(parseYaml(JSON.stringify(t.frontmatter))).toEqual(t.frontmatter);
    }
  });

  it('answers 404 for an unknown template and 401 without a session', async () => {
    const missing = await server.request('GET', '/api/v1/templates/nope', { token: user.token });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: 'NOT_FOUND' });
    expect(missing.body.request_id).toBeTruthy();
    expect((await server.request('GET', '/api/v1/templates')).status).toBe(401);
    expect((await server.request('GET', '/api/v1/templates/adr')).status).toBe(401);
  });

  it('is open to any role, and a template makes a valid page', async () => {
    const owner = await registerUser(server);
    const ws = await createWorkspace(server, owner, 'templated');
    await grantRole(server, ws, user, 'viewer');
    const runbook = await server.request('GET', '/api/v1/templates/runbook', { token: user.token });
    expect(runbook.status).toBe(200);
    const created = await server.request('POST', `/api/v1/content/${ws.slug}/ops/runbook`, {
      token: owner.token,
      body: { title: runbook.body.title, body: runbook.body.body, tags: runbook.body.frontmatter.tags },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ title: runbook.body.title, tags: ['runbook', 'operations'] });
  });
});
