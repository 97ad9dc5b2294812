/**
 * What an agent receives from a tool, through the official SDK client: the result as
 * compact structured content (no empty fields), the same compact JSON as text for
 * clients that read only text, and search snippets as plain text.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/databases.js';
import { mcpOverHttp } from '../helpers/mcp.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { firstWorkspace, registerUser } from '../helpers/users.js';

/** Every value in a JSON tree, to look for empty ones. */
function allValues(value: unknown): unknown[] {
  if (Array.isArray(value)) return [value, ...value.flatMap(allValues)];
  if (value && typeof value === 'object') return [value, ...Object.values(value).flatMap(allValues)];
  return [value];
}

describeEachDatabase('tool results on $name', (target) => {
  let server: TestServer;
  let client: Client;
  let slug: string;
  let cleanup: () => Promise<void>;
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await client.callTool({ name, arguments: { workspace: slug, ...args } });
    const content = result.content as Array<{ type: string; text: string }>;
    return { result, content, data: result.structuredContent as Record<string, unknown> };
  };

  beforeAll(async () => {
    const db = await target.prepare();
    cleanup = db.cleanup;
    server = await startServer({ env: db.env, ...(db.pgSchema ? { pgSchema: db.pgSchema } : {}) });
    const user = await registerUser(server);
    const key = (await server.request('POST', '/api/v1/api-keys', { token: user.token, body: { name: 'r' } }))
      .body.key;
    slug = (await firstWorkspace(server, user)).slug;
    client = await mcpOverHttp(`${server.url}/mcp`, key);
    for (let i = 0; i < 15; i++) {
      await call('svc_write_page', {
        path: `section-${i % 3}/page-${i}`,
        title: `Page ${i}`,
        content: i === 0 ? 'Run `a < b && c > "d"` to install the frobnicator.' : `Page number ${i}.`,
      });
    }
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
    await cleanup?.();
  });

  it('every tool declares an object output schema, so clients take the structured content', async () => {
    const { tools } = await client.listTools();
    for (const tool of tools) expect(tool.outputSchema?.type, tool.name).toBe('object');
  });

  it('a tree comes compact: no empty children or nulls, the text the same compact JSON', async () => {
    const { result, content, data } = await call('svc_get_tree');
    expect(content).toHaveLength(1);
    expect(content[0]!.text).toBe(JSON.stringify(data));
    const values = allValues(data);
    expect(values).not.toContainEqual([]);
    expect(values).not.toContain(null);
    expect(JSON.stringify(data)).toContain('section-1/page-4.md');
    // Folders keep their children; leaves have none to show.
    const tree = data.tree as Array<{ type: string; children?: unknown[] }>;
    expect(tree.find((node) => node.type === 'folder')?.children?.length).toBeGreaterThan(0);
    // Not pretty-printed, in either form.
    expect(JSON.stringify(result)).not.toContain('\\n  ');
    expect(JSON.stringify(result).length).toBeLessThan(2.2 * JSON.stringify(data).length);
  });

  it('a page read leaves out the fields it does not have', async () => {
    const { data, content } = await call('svc_read_page', { path: 'section-1/page-1.md' });
    expect(data).toMatchObject({ path: 'section-1/page-1.md', title: 'Page 1', content: 'Page number 1.' });
    expect(data).not.toHaveProperty('description');
    expect(JSON.parse(content[0]!.text)).toEqual(data);
  });

  it('search snippets are plain text: no <mark>, no escaped characters', async () => {
    const { data } = await call('svc_search', { query: 'frobnicator' });
    const [hit] = data.results as Array<{ path: string; snippet: string }>;
    expect(hit!.path).toBe('section-0/page-0.md');
    expect(hit!.snippet).toContain('a < b && c > "d"');
    expect(hit!.snippet).toContain('frobnicator');
    expect(hit!.snippet).not.toMatch(/<\/?mark>|&(amp|lt|gt|quot);/);
  });

  it('a refusal is the error body once, with its message as the text', async () => {
    const { result, content, data } = await call('svc_read_page', { path: 'missing.md' });
    expect(result.isError).toBe(true);
    expect(data).toEqual({ error: 'NOT_FOUND', message: expect.any(String) });
    expect(content[0]!.text).toBe(`NOT_FOUND: ${data.message as string}`);
  });
});
