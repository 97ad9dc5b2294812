/**
 * svc_export reports what the ZIP served by the HTTP export holds, without building it:
 * the same file name, the published pages it holds (those of the default version when
 * one is set) and the total size of its files before compression.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, mcpOverHttp } from '../helpers/mcp.js';
import type { TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { createPage, createWorkspace, type TestWorkspace } from '../helpers/workspace-access.js';
import { PNG, setSettings, startPublishing, upload } from '../publishing/publishing-helpers.js';

/** The ZIP's entries with their uncompressed sizes. */
async function entries(bytes: Buffer): Promise<Map<string, number>> {
  const zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true });
  const sizes = new Map<string, number>();
  for await (const entry of zip.eachEntry()) sizes.set(entry.fileName, entry.uncompressedSize);
  return sizes;
}

describe('svc_export against the HTTP export', () => {
  let server: TestServer;
  let owner: TestUser;
  let client: Client;

  /** The tool's answer, and the ZIP its download_url serves. */
  async function both(ws: TestWorkspace) {
    const summary = await callTool(client, 'svc_export', { workspace: ws.slug });
    expect(summary.isError, summary.text).toBe(false);
    // The URL is on the configured public address; the test server listens on its own port.
    const { pathname } = new URL(summary.data.download_url as string);
    expect(pathname).toBe(`/api/v1/workspaces/${ws.id}/export`);
    const res = await fetch(server.url + pathname, { headers: { authorization: `Bearer ${owner.token}` } });
    expect(res.status).toBe(200);
    const disposition = res.headers.get('content-disposition') ?? '';
    const zip = await entries(Buffer.from(await res.arrayBuffer()));
    return { summary: summary.data, zip, disposition };
  }
  const total = (zip: Map<string, number>) => [...zip.values()].reduce((sum, size) => sum + size, 0);

  beforeAll(async () => {
    server = await startPublishing({ rateLimits: { export: { limit: 1000 } } });
    owner = await registerUser(server);
    const key = (
      await server.request('POST', '/api/v1/api-keys', { token: owner.token, body: { name: 'x' } })
    ).body.key;
    client = await mcpOverHttp(`${server.url}/mcp`, key);
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  it('counts the pages and the uncompressed bytes the ZIP holds, uploads and generated indexes included', async () => {
    const ws = await createWorkspace(server, owner, 'summary-docs');
    const image = await upload(server, owner, ws, 'chart.png', PNG);
    await createPage(server, owner, ws, 'index.md', {
      title: 'Home',
      body: 'See [[guides/setup]].',
      publish: true,
    });
    await createPage(server, owner, ws, 'guides/setup.md', {
      title: 'Setup',
      body: `![Chart](../uploads/${image})\n\n${'Long text. '.repeat(200)}`,
      publish: true,
    });
    await createPage(server, owner, ws, 'guides/usage.md', {
      title: 'Usage',
      body: 'Use it.',
      publish: true,
    });
    await createPage(server, owner, ws, 'drafts/wip.md', { title: 'WIP', body: 'Not yet.' });

    const { summary, zip, disposition } = await both(ws);
    expect([...zip.keys()]).toEqual(expect.arrayContaining(['guides/index.html', `uploads/${image}`]));
    expect(summary.page_count).toBe(3);
    expect(summary.size_bytes).toBe(total(zip));
    expect(disposition).toContain(`filename="${summary.filename as string}"`);
    expect(summary.method).toMatch(/^GET /);
  });

  it('counts the default version the ZIP holds, not the live pages', async () => {
    const ws = await createWorkspace(server, owner, 'summary-versions');
    await createPage(server, owner, ws, 'index.md', { title: 'Home', body: 'Frozen.', publish: true });
    const frozen = await server.request('POST', `/api/v1/workspaces/${ws.id}/versions`, {
      token: owner.token,
      body: { slug: 'v1', name: 'Version 1' },
    });
    expect(frozen.status).toBe(201);
    await createPage(server, owner, ws, 'later.md', { title: 'Later', body: 'Live only.', publish: true });
    await setSettings(server, owner, ws, { default_version: 'v1' });

    const { summary, zip, disposition } = await both(ws);
    expect([...zip.keys()]).not.toContain('later.html');
    expect(summary.page_count).toBe(1);
    expect(summary.size_bytes).toBe(total(zip));
    expect(summary.filename).toBe('summary-versions-v1-site.zip');
    expect(disposition).toContain('filename="summary-versions-v1-site.zip"');
  });
});
