/**
 * The older layouts' asset uploads through real HTTP, on both databases: Layout C's
 * `/api/v1/workspaces/:id/assets` and Layout B's `/api/v1/content/:workspace/assets` take
 * the multipart field `file` and answer 201 with `path, url, size, content_type`; the file
 * is then served by the current uploads route.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/databases.js';
import type { TestServer } from '../helpers/server.js';
import { firstWorkspace, registerUser, type TestUser } from '../helpers/users.js';
import { PNG } from '../authz/matrix-fixture.js';
import { startOn } from './compat-helpers.js';

describeEachDatabase('older layouts: asset uploads ($name)', (target) => {
  let server: TestServer;
  let cleanup: () => Promise<void>;
  let owner: TestUser;
  let ws: { id: string; slug: string };

  beforeAll(async () => {
    ({ server, cleanup } = await startOn(target));
    owner = await registerUser(server);
    ws = await firstWorkspace(server, owner);
  });
  afterAll(async () => cleanup?.());

  async function post(url: string, name: string, bytes: BlobPart, type: string) {
    const form = new FormData();
    form.append('file', new Blob([bytes], { type }), name);
    const res = await fetch(server.url + url, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}` },
      body: form,
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
  }

  it.each([
    ['C', () => `/api/v1/workspaces/${ws.id}/assets`, () => ws.id],
    ['B', () => `/api/v1/content/${ws.slug}/assets`, () => ws.slug],
  ])('stores an upload through Layout %s, served by the current route', async (_layout, url, successorWs) => {
    const name = `logo-${_layout}.png`;
    const res = await post(url(), name, new Uint8Array(PNG), 'image/png');
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['content_type', 'path', 'size', 'url']);
    expect(res.body).toMatchObject({ content_type: 'image/png', size: PNG.length });
    expect(res.headers.get('deprecation')).toBe('true');
    expect(res.headers.get('link')).toBe(
      `</api/v1/content/${successorWs()}/uploads>; rel="successor-version"`,
    );

    const served = await fetch(server.url + String(res.body.url), {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('refuses a file sent in another field, as the current uploads do', async () => {
    const form = new FormData();
    form.append('upload', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'logo.png');
    const res = await fetch(`${server.url}/api/v1/workspaces/${ws.id}/assets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}` },
      body: form,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { details: { field: string } }).details.field).toBe('file');
  });
});
