/**
 * Layout B's shapes on current paths, chosen with `Folio-Layout: B`, through real HTTP: a
 * `PUT` with `move_to` moves a page (same page_id, the old path redirecting on the published
 * site), with or without the header, while other PUT bodies still update; and the writing-assist body
 * `{ workspace_id, operation, content }` answering `{ result }` over a fake AI provider.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAiServer, type FakeAiServer } from '../helpers/fake-ai-server.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { firstWorkspace, registerUser, type TestUser } from '../helpers/users.js';
import { grantRole } from '../helpers/workspace-access.js';
import { expectCurrent, expectDeprecated } from './compat-helpers.js';

const B = { 'Folio-Layout': 'B' };

describe('Layout B on current paths', () => {
  let fake: FakeAiServer;
  let server: TestServer;
  let owner: TestUser;
  let ws: { id: string; slug: string };
  const page = (path: string) => `/api/v1/content/${ws.slug}/${path}`;

  beforeAll(async () => {
    fake = await startFakeAiServer();
    server = await startServer({
      env: { AI_PROVIDER: 'openai', AI_BASE_URL: fake.url, AI_API_KEY: 'sk-test', AI_MODEL: 'fake' },
    });
    owner = await registerUser(server);
    ws = await firstWorkspace(server, owner);
  });
  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });

  it('moves a page with PUT { move_to }, keeping its page_id and an alias at the old path', async () => {
    const created = await server.request('POST', page('old-name.md'), {
      token: owner.token,
      body: { title: 'Old name', body: 'Text', publish: true },
    });
    expect(created.status).toBe(201);
    const moved = await server.request('PUT', page('old-name.md'), {
      token: owner.token,
      headers: B,
      body: { move_to: 'guides/new-name.md' },
    });
    expect(moved.status).toBe(200);
    expectDeprecated(moved, page('old-name.md'));
    expect(moved.body).toMatchObject({ page_id: created.body.page_id, path: 'guides/new-name.md' });

    const read = await server.request('GET', page('guides/new-name.md'), { token: owner.token });
    expect(read.body.page_id).toBe(created.body.page_id);
    const alias = await server.folio.store.db
      .selectFrom('page_aliases')
      .select(['old_path', 'page_id'])
      .where('workspace_id', '=', ws.id)
      .execute();
    expect(alias).toContainEqual({ old_path: 'old-name.md', page_id: created.body.page_id });
  });

  it('moves with PUT { move_to } without the header too, as an older client sends it', async () => {
    const created = await server.request('POST', page('headerless.md'), {
      token: owner.token,
      body: { title: 'Headerless', body: 'Text' },
    });
    expect(created.status).toBe(201);
    const moved = await server.request('PUT', page('headerless.md'), {
      token: owner.token,
      body: { move_to: 'guides/headerless.md' },
    });
    expect(moved.status).toBe(200);
    expectDeprecated(moved, page('headerless.md'));
    expect(moved.body).toMatchObject({ page_id: created.body.page_id, path: 'guides/headerless.md' });
    const gone = await server.request('GET', page('headerless.md'), { token: owner.token });
    expect(gone.status).not.toBe(200);
    const read = await server.request('GET', page('guides/headerless.md'), { token: owner.token });
    expect(read.body.page_id).toBe(created.body.page_id);

    // Inside a change request the move happens on its branch only.
    const request = await server.request('POST', `/api/v1/workspaces/${ws.id}/change-requests`, {
      token: owner.token,
      body: { title: 'Rename' },
    });
    expect(request.status, request.text).toBe(201);
    const n = request.body.number;
    const inRequest = await server.request('PUT', `${page('guides/headerless.md')}?change_request=${n}`, {
      token: owner.token,
      body: { move_to: 'guides/renamed.md' },
    });
    expect(inRequest.status, inRequest.text).toBe(200);
    expect(inRequest.body.path).toBe('guides/renamed.md');
    const there = await server.request('GET', `${page('guides/renamed.md')}?change_request=${n}`, {
      token: owner.token,
    });
    expect(there.body.page_id).toBe(created.body.page_id);
    const live = await server.request('GET', page('guides/headerless.md'), { token: owner.token });
    expect(live.status).toBe(200);

    // A reader may not move it; an anonymous caller is refused before the body is looked at.
    const viewer = await registerUser(server);
    await grantRole(server, ws, viewer, 'viewer');
    const refused = await server.request('PUT', page('guides/headerless.md'), {
      token: viewer.token,
      body: { move_to: 'stolen.md' },
    });
    expect(refused.status).toBe(403);
    const anonymous = await server.request('PUT', page('guides/headerless.md'), {
      body: { move_to: 'x.md' },
    });
    expect(anonymous.status).toBe(401);

    // A bad move is refused by name, and the current update is untouched by the field's support.
    const bad = await server.request('PUT', page('guides/headerless.md'), {
      token: owner.token,
      body: { move_to: 'elsewhere.md', body: 'x' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field: 'body' } });
    const updated = await server.request('PUT', page('guides/headerless.md'), {
      token: owner.token,
      body: { body: 'New text', lastKnownHash: read.body.content_hash },
    });
    expect(updated.status).toBe(200);
    expectCurrent(updated);
  });

  it('still updates with any other PUT body under Folio-Layout: B', async () => {
    const read = await server.request('GET', page('guides/new-name.md'), { token: owner.token });
    const updated = await server.request('PUT', page('guides/new-name.md'), {
      token: owner.token,
      headers: B,
      body: { body: 'New text', lastKnownHash: read.body.content_hash },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.content).toBe('New text');
  });

  it('answers the writing-assist body of Layout B with { result }', async () => {
    const res = await server.request('POST', '/api/v1/ai/writing-assist', {
      token: owner.token,
      headers: B,
      body: { workspace_id: ws.id, operation: 'shorten', content: 'A long paragraph about docs.' },
    });
    expect(res.status).toBe(200);
    expectDeprecated(res, '/api/v1/ai/writing-assist');
    expect(res.body).toEqual({ result: expect.stringContaining('summarize') });

    const unknown = await server.request('POST', '/api/v1/ai/writing-assist', {
      token: owner.token,
      headers: B,
      body: { workspace_id: ws.id, operation: 'translate', content: 'x' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.fields?.[0]?.field ?? unknown.body.details?.field).toBe('operation');

    const stranger = await registerUser(server);
    const refused = await server.request('POST', '/api/v1/ai/writing-assist', {
      token: stranger.token,
      headers: B,
      body: { workspace_id: ws.id, operation: 'expand', content: 'x' },
    });
    expect(refused.status).toBe(404);

    const current = await server.request('POST', '/api/v1/ai/writing-assist', {
      token: owner.token,
      body: { action: 'expand', content: 'Short.' },
    });
    expect(current.status).toBe(200);
    expect(current.body.action).toBe('expand');
    expectCurrent(current);
  });
});
