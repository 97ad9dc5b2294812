/**
 * svc_write_page is an upsert: it creates a page, or replaces the one already at the path
 * (its body, its title, and its description, tags and status when given), keeping the
 * page's id and the frontmatter it was not given; a reader cannot do either.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/databases.js';
import { callTool, mcpOverHttp } from '../helpers/mcp.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { firstWorkspace, registerUser, type TestUser } from '../helpers/users.js';

describeEachDatabase('svc_write_page on $name', (target) => {
  let server: TestServer;
  let owner: TestUser;
  let client: Client;
  let slug: string;
  let cleanup: () => Promise<void>;
  const write = (args: Record<string, unknown>) =>
    callTool(client, 'svc_write_page', { workspace: slug, ...args });
  const read = async (path: string) =>
    (await server.request('GET', `/api/v1/content/${slug}/${path}`, { token: owner.token })).body;

  beforeAll(async () => {
    const db = await target.prepare();
    cleanup = db.cleanup;
    server = await startServer({ env: db.env, ...(db.pgSchema ? { pgSchema: db.pgSchema } : {}) });
    owner = await registerUser(server);
    const key = (
      await server.request('POST', '/api/v1/api-keys', { token: owner.token, body: { name: 'w' } })
    ).body.key;
    slug = (await firstWorkspace(server, owner)).slug;
    client = await mcpOverHttp(`${server.url}/mcp`, key);
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
    await cleanup?.();
  });

  it('creates a missing page, then replaces it in place, keeping what was not given', async () => {
    const first = await write({
      path: 'guides/upsert',
      title: 'First',
      content: 'One.',
      description: 'Kept when not given again.',
      tags: ['a'],
    });
    expect(first.isError, first.text).toBe(false);
    expect(first.data.created).toBe(true);
    expect(first.data.page).toMatchObject({ path: 'guides/upsert.md', title: 'First', status: 'draft' });

    const second = await write({ path: 'guides/upsert.md', title: 'Second', content: 'Two.', publish: true });
    expect(second.isError, second.text).toBe(false);
    expect(second.data.created).toBe(false);
    expect(second.data.page.page_id).toBe(first.data.page.page_id);
    expect(await read('guides/upsert.md')).toMatchObject({
      title: 'Second',
      content: 'Two.',
      description: 'Kept when not given again.',
      tags: ['a'],
      status: 'published',
    });

    const third = await write({
      path: 'guides/upsert',
      title: '  Third  ',
      content: '',
      tags: [' b '],
      publish: false,
    });
    expect(third.data.created).toBe(false);
    expect(await read('guides/upsert.md')).toMatchObject({
      title: 'Third',
      content: '',
      tags: ['b'],
      status: 'draft',
    });
  });

  it('refuses a read-only key both ways, and changes nothing', async () => {
    const key = (
      await server.request('POST', '/api/v1/api-keys', {
        token: owner.token,
        body: { name: 'r', scopes: ['read'] },
      })
    ).body.key;
    const reader = await mcpOverHttp(`${server.url}/mcp`, key);
    try {
      for (const path of ['guides/upsert.md', 'guides/never.md']) {
        const refused = await callTool(reader, 'svc_write_page', {
          workspace: slug,
          path,
          title: 'X',
          content: 'x',
        });
        expect(refused.data.error).toBe('FORBIDDEN');
      }
      expect((await read('guides/upsert.md')).title).toBe('Third');
      const missing = await server.request('GET', `/api/v1/content/${slug}/guides/never.md`, {
        token: owner.token,
      });
      expect(missing.status).toBe(404);
    } finally {
      await reader.close();
    }
  });
});
