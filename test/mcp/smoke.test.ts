import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { registerUser } from '../helpers/users.js';
import { callTool, mcpOverHttp } from '../helpers/mcp.js';

describe('MCP over HTTP smoke', () => {
  let server: TestServer;
  let client: Client;
  let slug: string;
  beforeAll(async () => {
    server = await startServer();
    const user = await registerUser(server);
    const key = (
      await server.request('POST', '/api/v1/api-keys', { token: user.token, body: { name: 'mcp' } })
    ).body.key;
    slug = (await server.request('GET', '/api/v1/workspaces', { token: user.token })).body.data[0].slug;
    client = await mcpOverHttp(`${server.url}/mcp`, key);
  });
  afterAll(async () => {
    await client?.close();
    await server.close();
  });

  it('lists tools and round-trips a page', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('svc_write_page');
    const written = await callTool(client, 'svc_write_page', {
      workspace: slug,
      path: 'a/b',
      title: 'B',
      content: 'hello',
    });
    expect(written.isError).toBe(false);
    expect(written.data.created).toBe(true);
    const read = await callTool(client, 'svc_read_page', { workspace: slug, path: 'a/b.md' });
    expect(read.data.content).toBe('hello');
  });
});

describe('MCP over stdio smoke', () => {
  it('serves 25 tools in-process and 26 through a server URL', async () => {
    const { mcpOverStdio } = await import('../helpers/mcp.js');
    let server = await startServer();
    const user = await registerUser(server);
    const key = (
      await server.request('POST', '/api/v1/api-keys', { token: user.token, body: { name: 'mcp' } })
    ).body.key;
    const slug = (await server.request('GET', '/api/v1/workspaces', { token: user.token })).body.data[0].slug;
    const dataDir = server.dataDir;
    // In-process MCP works on DATA_DIR itself, so only while no server runs there.
    await server.close();
    const local = await mcpOverStdio(['--workspace', slug, '--api-key', key], { DATA_DIR: dataDir });
    let localTools;
    try {
      localTools = (await local.listTools()).tools;
      expect(localTools).toHaveLength(25);
      expect(localTools.find((t) => t.name === 'svc_read_page')?.inputSchema.properties).not.toHaveProperty(
        'workspace',
      );
      const viaLocal = await callTool(local, 'svc_write_page', { path: 'x', title: 'X', content: 'local' });
      expect(viaLocal.isError).toBe(false);
    } finally {
      await local.close();
    }

    server = await startServer({ dataDir });
    const bridged = await mcpOverStdio(['--workspace', slug, '--api-key', key, '--server-url', server.url], {
      DATA_DIR: dataDir,
    });
    try {
      const bridgedTools = (await bridged.listTools()).tools;
      expect(bridgedTools).toHaveLength(26);
      expect(bridgedTools.find((t) => t.name === 'svc_read_page')?.inputSchema.properties).not.toHaveProperty(
        'workspace',
      );
      const viaBridge = await callTool(bridged, 'svc_read_page', { path: 'x' });
      expect(viaBridge.data.content).toBe('local');
    } finally {
      await bridged.close();
      await server.close();
    }
  });
});
