import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, mcpOverHttp, mcpOverStdio } from '../helpers/mcp.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';

const TOOL_NAMES = [
  'list_pages',
  'read_page',
  'write_page',
  'update_page',
  'delete_page',
  'move_page',
  'search',
  'get_context',
  'list_workspaces',
  'get_tree',
  'get_manifest',
  'validate_links',
  'quality_scan',
  'get_theme',
  'update_theme',
  'create_workspace',
  'get_workspace',
  'publish_workspace',
  'list_versions',
  'create_version',
  'export',
  'writing_assist',
  'get_activity',
  'list_comments',
  'add_comment',
  'resolve_sync_conflict',
].map((name) => `svc_${name}`);

async function apiKey(server: TestServer, user: TestUser, scopes?: string[]): Promise<string> {
  const res = await server.request('POST', '/api/v1/api-keys', {
    token: user.token,
    body: { name: 'mcp', scopes },
  });
  return res.body.key;
}

/** An agent's round trip through the tools, against any transport; `ws` is the workspace argument where needed. */
async function roundTrip(client: Client, ws: Record<string, string>) {
  const written = await callTool(client, 'svc_write_page', {
    ...ws,
    path: 'guides/setup',
    title: 'Setup',
    content: 'Install the **frobnicator** first. See [[guides/usage]].',
  });
  expect(written.isError).toBe(false);
  expect(written.data.created).toBe(true);
  await callTool(client, 'svc_write_page', {
    ...ws,
    path: 'guides/usage',
    title: 'Usage',
    content: 'Use it.',
  });

  const read = await callTool(client, 'svc_read_page', { ...ws, path: 'guides/setup.md' });
  expect(read.data.content).toContain('frobnicator');
  const hash = read.data.content_hash as string;

  const stale = await callTool(client, 'svc_update_page', {
    ...ws,
    path: 'guides/setup.md',
    content: 'lost update',
    last_known_hash: 'sha256:0000',
  });
  expect(stale.isError).toBe(true);
  expect(stale.data.error).toBe('CONFLICT');
  expect(stale.data.details.current_hash).toBe(hash);

  const updated = await callTool(client, 'svc_update_page', {
    ...ws,
    path: 'guides/setup.md',
    content: 'Install the **frobnicator** twice. See [[guides/usage]].',
    last_known_hash: hash,
  });
  expect(updated.isError).toBe(false);
  expect(updated.data.content_hash).not.toBe(hash);

  const moved = await callTool(client, 'svc_move_page', {
    ...ws,
    path: 'guides/usage.md',
    new_path: 'manual/usage.md',
  });
  expect(moved.isError).toBe(false);
  expect(moved.data.path).toBe('manual/usage.md');

  const tree = await callTool(client, 'svc_get_tree', ws);
  expect(JSON.stringify(tree.data.tree)).toContain('manual/usage.md');

  const search = await callTool(client, 'svc_search', { ...ws, query: 'frobnicator' });
  expect(search.data.results[0].path).toBe('guides/setup.md');

  const context = await callTool(client, 'svc_get_context', { ...ws, path: 'guides/setup.md' });
  expect(context.data.page.content).toContain('[[manual/usage]]');
  expect(context.data.linked_pages.map((p: { path: string }) => p.path)).toEqual(['manual/usage.md']);
}

describe('MCP over streamable HTTP', () => {
  let server: TestServer;
  let owner: TestUser;
  let slug: string;
  let client: Client;
  beforeAll(async () => {
    server = await startServer();
    owner = await registerUser(server);
    slug = (await server.request('GET', '/api/v1/workspaces', { token: owner.token })).body.data[0].slug;
    client = await mcpOverHttp(`${server.url}/mcp`, await apiKey(server, owner));
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('lists exactly the 26 tools, each described, with a workspace argument where it acts on one', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
    for (const tool of tools) expect(tool.description!.length).toBeGreaterThan(60);
    const read = tools.find((t) => t.name === 'svc_read_page')!;
    expect(read.inputSchema.required).toEqual(expect.arrayContaining(['workspace', 'path']));
    expect(tools.find((t) => t.name === 'svc_list_workspaces')!.inputSchema.properties).not.toHaveProperty(
      'workspace',
    );
  });

  it('does the agent round trip: write, read, stale and fresh update, move, tree, search, context', async () => {
    await roundTrip(client, { workspace: slug });
  });

  it('refuses writes to a read-scoped key, with the error code and no stack', async () => {
    const reader = await mcpOverHttp(`${server.url}/mcp`, await apiKey(server, owner, ['read']));
    try {
      const refused = await callTool(reader, 'svc_write_page', {
        workspace: slug,
        path: 'x',
        title: 'X',
        content: 'x',
      });
      expect(refused.isError).toBe(true);
      expect(refused.data.error).toBe('FORBIDDEN');
      expect(refused.text).not.toMatch(/\bat .*\.ts:\d+/);
      const allowed = await callTool(reader, 'svc_get_manifest', { workspace: slug });
      expect(allowed.isError).toBe(false);
    } finally {
      await reader.close();
    }
  });

  it('shows a key of another organization nothing', async () => {
    const stranger = await registerUser(server);
    const other = await mcpOverHttp(`${server.url}/mcp`, await apiKey(server, stranger));
    try {
      const read = await callTool(other, 'svc_read_page', { workspace: slug, path: 'guides/setup.md' });
      expect(read.isError).toBe(true);
      expect(read.data.error).toBe('NOT_FOUND');
      const list = await callTool(other, 'svc_list_workspaces');
      expect(list.data.data.map((w: { slug: string }) => w.slug)).not.toContain(slug);
      const search = await callTool(other, 'svc_search', { workspace: slug, query: 'frobnicator' });
      expect(search.data.error).toBe('NOT_FOUND');
    } finally {
      await other.close();
    }
  });

  it('needs an API key: a JWT or nothing is refused', async () => {
    const anon = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(anon.status).toBe(401);
    const jwt = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${owner.token}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(jwt.status).toBe(401);
  });

  it('soft-deletes: the page is gone and its file waits in the trash', async () => {
    await callTool(client, 'svc_write_page', {
      workspace: slug,
      path: 'tmp/doomed',
      title: 'Doomed',
      content: 'bye',
    });
    const deleted = await callTool(client, 'svc_delete_page', { workspace: slug, path: 'tmp/doomed.md' });
    expect(deleted.data).toMatchObject({ deleted: true, path: 'tmp/doomed.md' });
    expect(deleted.data.recoverable_from).toMatch(/^\.folio\/trash\/.+\.md$/);
    const gone = await callTool(client, 'svc_read_page', { workspace: slug, path: 'tmp/doomed.md' });
    expect(gone.data.error).toBe('NOT_FOUND');
  });
});

describe('MCP over stdio', () => {
  it('runs in-process with 25 tools (no sync engine) and does the round trip', async () => {
    const server = await startServer();
    const owner = await registerUser(server);
    const key = await apiKey(server, owner);
    const slug = (await server.request('GET', '/api/v1/workspaces', { token: owner.token })).body.data[0]
      .slug;
    await server.close(); // in-process mode must not share DATA_DIR with a running server
    const client = await mcpOverStdio(['--workspace', slug, '--api-key', key], { DATA_DIR: server.dataDir });
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(
        TOOL_NAMES.filter((n) => n !== 'svc_resolve_sync_conflict').sort(),
      );
      await roundTrip(client, {});
    } finally {
      await client.close();
    }
  });

  it('bridges to a server URL with all 26 tools, fixed to one workspace', async () => {
    const server = await startServer();
    const owner = await registerUser(server);
    const key = await apiKey(server, owner);
    const slug = (await server.request('GET', '/api/v1/workspaces', { token: owner.token })).body.data[0]
      .slug;
    const client = await mcpOverStdio(['--workspace', slug, '--api-key', key, '--server-url', server.url], {
      DATA_DIR: server.dataDir,
    });
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
      await roundTrip(client, {});
      const page = await server.request('GET', `/api/v1/content/${slug}/guides/setup.md`, {
        token: owner.token,
      });
      expect(page.body.content).toContain('twice');
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('refuses a bad key on stderr with exit code 1 and nothing on stdout', async () => {
    const { runCli } = await import('../helpers/cli.js');
    const server = await startServer();
    await server.close();
    const res = await runCli(['mcp', '--workspace', 'x', '--api-key', 'svc_live_bogus'], {
      DATA_DIR: server.dataDir,
    });
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('API key');
  });
});
