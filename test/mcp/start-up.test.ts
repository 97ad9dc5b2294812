/**
 * `folio mcp` checks its API key and workspace before it serves, and refuses with one
 * sentence on stderr and exit code 1, whether it bridges to a server or runs in-process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { freePort } from '../helpers/ports.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { firstWorkspace, registerUser } from '../helpers/users.js';

const BAD_KEY = 'folio mcp: the API key is invalid or expired\n';

describe('folio mcp refuses at start', () => {
  let server: TestServer;
  let key: string;
  let slug: string;
  const mcp = (args: string[]) => runCli(['mcp', ...args], { DATA_DIR: server.dataDir });

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

  it('bridged: a bad key is one sentence and exit 1, not a stack trace', async () => {
    const res = await mcp(['--workspace', slug, '--api-key', 'svc_live_bogus', '--server-url', server.url]);
    expect(res).toMatchObject({ code: 1, stdout: '', stderr: BAD_KEY });
  });

  it('bridged: an unknown workspace is refused before serving', async () => {
    const res = await mcp(['--workspace', 'no-such-docs', '--api-key', key, '--server-url', server.url]);
    expect(res).toMatchObject({ code: 1, stdout: '' });
    expect(res.stderr).toBe('folio mcp: no workspace "no-such-docs" that this API key can read\n');
  });

  it('bridged: an unreachable server is named in one sentence', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const res = await mcp(['--workspace', slug, '--api-key', key, '--server-url', url]);
    expect(res).toMatchObject({ code: 1, stdout: '' });
    expect(res.stderr).toMatch(new RegExp(`^folio mcp: cannot reach the server at ${url} \\(.+\\)\\n$`));
  });

  it('bridged: a good key and workspace serve until the client goes, then exit 0', async () => {
    const res = await mcp(['--workspace', slug, '--api-key', key, '--server-url', server.url]);
    expect(res).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('in-process: the same sentences for a bad key and an unknown workspace', async () => {
    await server.close(); // in-process mode must not share DATA_DIR with a running server
    const badKey = await mcp(['--workspace', slug, '--api-key', 'svc_live_bogus']);
    expect(badKey).toMatchObject({ code: 1, stdout: '', stderr: BAD_KEY });
    const unknown = await mcp(['--workspace', 'no-such-docs', '--api-key', key]);
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr).toBe('folio mcp: no workspace "no-such-docs" that this API key can read\n');
  }, 30_000);
});
