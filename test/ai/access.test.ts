import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAiServer, type FakeAiServer } from '../helpers/fake-ai-server.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';

/**
 * Who may use the AI endpoints on a workspace: writing assistance needs the
 * editor role where the text belongs, chat needs read access, and a
 * workspace the caller cannot read does not exist for them.
 */
describe('AI permissions', () => {
  let fake: FakeAiServer;
  let server: TestServer;
  let owner: TestUser;
  let viewer: TestUser;
  let editor: TestUser;
  let ownerWs: { id: string; slug: string };
  let viewerWs: { id: string; slug: string };

  async function starterWorkspace(user: TestUser) {
    const res = await server.request('GET', '/api/v1/workspaces', { token: user.token });
    return res.body.data[0] as { id: string; slug: string };
  }

  /** Joins `user` to the owner's workspace with `role` through a share link. */
  async function join(user: TestUser, role: string) {
    const link = await server.request('POST', `/api/v1/workspaces/${ownerWs.id}/share-links`, {
      token: owner.token,
      body: { role },
    });
    expect(link.status, link.text).toBe(201);
    const used = await server.request('POST', `/api/v1/share-links/${link.body.token}/use`, {
      token: user.token,
    });
    expect(used.status, used.text).toBeLessThan(300);
  }

  const assist = (token: string, workspaceId?: string) =>
    server.request('POST', '/api/v1/ai/writing-assist', {
      token,
      body: {
        action: 'improve',
        content: 'Draft text.',
        ...(workspaceId ? { workspace_id: workspaceId } : {}),
      },
    });

  const chat = (token: string, workspaceId?: string) =>
    server.request('POST', '/api/v1/ai/chat', {
      token,
      body: {
        messages: [{ role: 'user', content: 'What does the gadget do?' }],
        ...(workspaceId ? { workspace_id: workspaceId } : {}),
      },
    });

  beforeAll(async () => {
    fake = await startFakeAiServer();
    server = await startServer({
      env: {
        AI_PROVIDER: 'openai',
        AI_BASE_URL: fake.url,
        AI_API_KEY: 'sk-test-secret',
        AI_MODEL: 'test-model',
      },
    });
    [owner, viewer, editor] = [
      await registerUser(server),
      await registerUser(server),
      await registerUser(server),
    ];
    ownerWs = await starterWorkspace(owner);
    viewerWs = await starterWorkspace(viewer);
    await join(viewer, 'viewer');
    await join(editor, 'editor');
    const page = await server.request('POST', `/api/v1/content/${ownerWs.slug}/gadget.md`, {
      token: owner.token,
      body: { title: 'Gadget', body: 'The gadget polishes widgets every hour.' },
    });
    expect(page.status, page.text).toBe(201);
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  it('refuses writing assistance to a viewer of the workspace with 403, before calling the provider', async () => {
    const before = fake.requests.length;
    for (const ref of [ownerWs.id, ownerWs.slug]) {
      const res = await assist(viewer.token, ref);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error: 'FORBIDDEN', request_id: expect.any(String) });
    }
    expect(fake.requests.length).toBe(before);
  });

  it('gives writing assistance to editors and owners of the workspace', async () => {
    expect((await assist(editor.token, ownerWs.slug)).status).toBe(200);
    expect((await assist(owner.token, ownerWs.id)).status).toBe(200);
    // Without a workspace: editor somewhere suffices (everyone owns their starter workspace).
    expect((await assist(viewer.token)).status).toBe(200);
  });

  it('answers 404 for a workspace the caller cannot read, for both actions', async () => {
    for (const res of [await assist(owner.token, viewerWs.slug), await chat(owner.token, viewerWs.slug)]) {
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('NOT_FOUND');
    }
    expect((await assist(owner.token, 'no-such-workspace')).status).toBe(404);
  });

  it('lets a viewer chat about the workspace they can read', async () => {
    const res = await chat(viewer.token, ownerWs.slug);
    expect(res.status, res.text).toBe(200);
    expect(res.body.sources.map((s: { path: string }) => s.path)).toEqual(['gadget.md']);
    expect(JSON.stringify(fake.requests.at(-1)!.body)).toContain('polishes widgets every hour');
  });

  it('asks which workspace when the caller can read several and names none', async () => {
    const res = await chat(viewer.token);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field: 'workspace_id' } });
  });
});
