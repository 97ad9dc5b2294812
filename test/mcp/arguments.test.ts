/**
 * Tool arguments are the services' input schemas: every argument is described for the
 * model, a call breaking a rule of the service's schema is refused before anything runs,
 * and checks across fields (give one of two) hold as they do over HTTP.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, mcpOverHttp } from '../helpers/mcp.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { firstWorkspace, registerUser, type TestUser } from '../helpers/users.js';

describe('MCP tool arguments', () => {
  let server: TestServer;
  let owner: TestUser;
  let client: Client;
  let slug: string;
  const call = (name: string, args: Record<string, unknown>) =>
    callTool(client, `svc_${name}`, { workspace: slug, ...args });

  beforeAll(async () => {
    server = await startServer();
    owner = await registerUser(server);
    const key = (
      await server.request('POST', '/api/v1/api-keys', { token: owner.token, body: { name: 'a' } })
    ).body.key;
    slug = (await firstWorkspace(server, owner)).slug;
    client = await mcpOverHttp(`${server.url}/mcp`, key);
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  it('describes every argument of every tool, the workspace first', async () => {
    const { tools } = await client.listTools();
    for (const tool of tools) {
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, { description?: string }>;
      for (const [name, schema] of Object.entries(properties)) {
        expect(schema.description?.length ?? 0, `${tool.name} ${name}`).toBeGreaterThan(10);
      }
    }
    const resolve = tools.find((t) => t.name === 'svc_resolve_sync_conflict')!;
    expect(Object.keys(resolve.inputSchema.properties!)).toEqual([
      'workspace',
      'conflict_id',
      'resolution',
      'content',
    ]);
    const write = tools.find((t) => t.name === 'svc_write_page')!;
    expect(write.inputSchema.required).toEqual(['workspace', 'path', 'title', 'content']);
    expect(write.inputSchema.properties!.title).toMatchObject({ type: 'string', maxLength: 500 });
  });

  it("refuses a call breaking the service's rules before the service runs", async () => {
    const long = await call('write_page', { path: 'too-long.md', title: 'x'.repeat(501), content: 'x' });
    expect(long.isError).toBe(true);
    expect(long.text).toMatch(/title/);
    expect((await call('read_page', { path: 'too-long.md' })).data.error).toBe('NOT_FOUND');

    const blank = await call('add_comment', { page: 'index.md', body: '   ' });
    expect(blank.isError).toBe(true);
    expect(blank.text).toContain('body must not be empty');

    const noHash = await call('update_page', { path: 'index.md', content: 'x' });
    expect(noHash.isError).toBe(true);
    expect(noHash.text).toMatch(/last_known_hash/);
  });

  it('keeps the check that a conflict is resolved by a side or by content, not both or neither', async () => {
    const id = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
    for (const args of [{}, { resolution: 'ours', content: 'merged' }]) {
      const refused = await call('resolve_sync_conflict', { conflict_id: id, ...args });
      expect(refused.isError).toBe(true);
      expect(refused.text).toContain('Send either resolution');
    }
    // A well-formed call reaches the service, which knows no such conflict.
    expect((await call('resolve_sync_conflict', { conflict_id: id, resolution: 'theirs' })).data.error).toBe(
      'NOT_FOUND',
    );
  });

  it("applies the service's defaults and normalisation", async () => {
    const trimmed = await call('write_page', {
      path: 'trimmed',
      title: '  Trimmed  ',
      content: 'Frobnicate.',
    });
    expect(trimmed.data.page.title).toBe('Trimmed');
    const found = await call('search', { query: '  frobnicate  ' });
    expect(found.isError, found.text).toBe(false);
    expect(found.data.query).toBe('frobnicate');
    expect(found.data.results[0].path).toBe('trimmed.md');
  });
});
