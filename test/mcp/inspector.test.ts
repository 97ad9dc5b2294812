/**
 * The MCP Inspector's command-line mode against `folio mcp`, exactly as docs/mcp.md tells
 * users to run it: `npx @modelcontextprotocol/inspector --cli <folio mcp …> --method …`.
 * The Inspector is pinned to 0.15.0, its last release that runs on Node 20.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, folioCommand, runProcess } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { registerUser } from '../helpers/users.js';

describe('the MCP Inspector CLI against `folio mcp`', () => {
  let server: TestServer;
  let key: string;
  let slug: string;
  let folio: string[];

  /** `npx @modelcontextprotocol/inspector --cli` running `folio mcp` over stdio. */
  function inspector(folioArgs: string[], method: string[]): Promise<CliResult> {
    const folioMcp = [...folio, 'mcp', '--workspace', slug];
    const args = ['@modelcontextprotocol/inspector', '--cli', '-e', `DATA_DIR=${server.dataDir}`];
    args.push('-e', 'LOG_LEVEL=warn', ...folioMcp, ...folioArgs, ...method);
    return runProcess('npx', args, { env: process.env, timeoutMs: 50_000 });
  }
  const listTools = async (folioArgs: string[]): Promise<string[]> => {
    const run = await inspector(folioArgs, ['--method', 'tools/list']);
    expect(run.code).toBe(0);
    return (JSON.parse(run.stdout) as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
  };
  const callTool = async (folioArgs: string[], tool: string, toolArgs: Record<string, string>) => {
    const pairs = Object.entries(toolArgs).flatMap(([k, v]) => ['--tool-arg', `${k}=${v}`]);
    const run = await inspector(folioArgs, ['--method', 'tools/call', '--tool-name', tool, ...pairs]);
    expect(run.code).toBe(0);
    return JSON.parse(run.stdout) as { isError?: boolean; structuredContent: Record<string, unknown> };
  };

  beforeAll(async () => {
    folio = await folioCommand();
    server = await startServer();
    const user = await registerUser(server);
    key = (
      await server.request('POST', '/api/v1/api-keys', { token: user.token, body: { name: 'inspector' } })
    ).body.key;
    slug = (await server.request('GET', '/api/v1/workspaces', { token: user.token })).body.data[0].slug;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('bridged to a running server: lists all 26 tools and writes a page the HTTP API then serves', async () => {
    const bridged = ['--api-key', key, '--server-url', server.url];
    const names = await listTools(bridged);
    expect(names).toHaveLength(26);
    expect(names).toEqual(
      expect.arrayContaining(['svc_write_page', 'svc_search', 'svc_resolve_sync_conflict']),
    );

    const written = await callTool(bridged, 'svc_write_page', {
      path: 'guides/inspected',
      title: 'Inspected',
      content: 'Written by the Inspector.',
    });
    expect(written.isError ?? false).toBe(false);
    expect(written.structuredContent.created).toBe(true);
    const page = await server.request('GET', `/api/v1/content/${slug}/guides/inspected.md`, { token: key });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ title: 'Inspected', content: 'Written by the Inspector.' });
  }, 60_000);

  it('in-process, with the server stopped: lists 25 tools, reads the page, refuses an unknown key', async () => {
    await server.close();
    const names = await listTools(['--api-key', key]);
    // Without a server there is no sync engine, so svc_resolve_sync_conflict is not offered (docs/mcp.md).
    expect(names).toHaveLength(25);
    expect(names).not.toContain('svc_resolve_sync_conflict');

    const read = await callTool(['--api-key', key], 'svc_read_page', { path: 'guides/inspected.md' });
    expect(read.structuredContent.content).toBe('Written by the Inspector.');

    const refused = await inspector(['--api-key', 'svc_live_not-a-real-key'], ['--method', 'tools/list']);
    expect(refused.code).not.toBe(0);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/Failed to connect to MCP server/);
  }, 60_000);
});
