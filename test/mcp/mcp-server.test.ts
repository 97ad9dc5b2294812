/**
 * `folio mcp-server` with a server URL relays `/mcp` to that server, so it offers what the
 * server offers (svc_resolve_sync_conflict included) and acts through the server's services.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folioCommand } from '../helpers/cli.js';
import { eventually } from '../helpers/eventually.js';
import { callTool, mcpOverHttp } from '../helpers/mcp.js';
import { freePort } from '../helpers/ports.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';
import { firstWorkspace, registerUser } from '../helpers/users.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** `folio mcp-server` on a free port, its own empty DATA_DIR; resolves once it answers. */
async function startMcpServer(args: string[], env: Record<string, string>) {
  const port = await freePort();
  const [node, folio] = await folioCommand();
  const child: ChildProcess = spawn(node, [folio, 'mcp-server', '--addr', `127.0.0.1:${port}`, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', DATA_DIR: tempDir(), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const url = `http://127.0.0.1:${port}`;
  await eventually(
    () =>
      fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      ),
    45_000,
  );
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

describe('folio mcp-server with a server URL', () => {
  let server: TestServer;
  let key: string;
  let slug: string;
  beforeAll(async () => {
    server = await startServer();
    const user = await registerUser(server);
    key = (await server.request('POST', '/api/v1/api-keys', { token: user.token, body: { name: 'mcp' } }))
      .body.key;
    slug = (await firstWorkspace(server, user)).slug;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('FOLIO_SERVER_URL: offers all 26 tools and writes through the server', async () => {
    const relay = await startMcpServer([], { FOLIO_SERVER_URL: server.url });
    try {
      const client = await mcpOverHttp(`${relay.url}/mcp`, key);
      try {
        const names = (await client.listTools()).tools.map((t) => t.name);
        expect(names).toHaveLength(26);
        expect(names).toContain('svc_resolve_sync_conflict');
        const written = await callTool(client, 'svc_write_page', {
          workspace: slug,
          path: 'relayed',
          title: 'Relayed',
          content: 'Through mcp-server.',
        });
        expect(written.isError).toBe(false);
        const page = await server.request('GET', `/api/v1/content/${slug}/relayed.md`, { token: key });
        expect(page.body.content).toBe('Through mcp-server.');
      } finally {
        await client.close();
      }
      // The server judges the key: a bad one is its 401.
      const refused = await mcpOverHttp(`${relay.url}/mcp`, 'svc_live_bogus').catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(StreamableHTTPError);
      expect((refused as StreamableHTTPError).code).toBe(401);
      expect((await fetch(`${relay.url}/api/ready`)).status).toBe(200);
    } finally {
      expect(await relay.stop()).toBe(0);
    }
  }, 90_000);

  it('--server-url: the same, given on the command line', async () => {
    const relay = await startMcpServer(['--server-url', server.url], {});
    try {
      const client = await mcpOverHttp(`${relay.url}/mcp`, key);
      const read = await callTool(client, 'svc_read_page', { workspace: slug, path: 'relayed.md' });
      expect(read.data.content).toBe('Through mcp-server.');
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('svc_resolve_sync_conflict');
      await client.close();
    } finally {
      await relay.stop();
    }
  }, 90_000);
});
