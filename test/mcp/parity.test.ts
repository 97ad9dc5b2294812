import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactForAgents } from '../../src/mcp/result.js';
import { htmlToPlainText } from '../../src/mcp/plain-text.js';
import { callTool, mcpOverHttp } from '../helpers/mcp.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';

/**
 * Each MCP tool beside the HTTP route of the same meaning, on one fixture: the
 * same answer for the owner (as agents get it: without empty fields, search
 * snippets as plain text), and the same refusal for a stranger and for a
 * read-only key. Writes use distinct paths for the two doors so both start
 * from the same state.
 */
interface Case {
  tool: string;
  args: (n: number) => Record<string, unknown>;
  http: (n: number) => { method: string; path: string; body?: unknown };
  /** Compares the owner's results; both doors must succeed when absent. */
  same?: (tool: any, http: any) => void; // eslint-disable-line @typescript-eslint/no-explicit-any
  write?: boolean;
}

let ws: { id: string; slug: string };

/**
 * A write's result has the route's fields, less those empty there (each door wrote its
 * own object, so values differ; a field empty on one side may be filled on the other).
 */
function sameFields(tool: object, http: object) {
  expect(Object.keys(http)).toEqual(expect.arrayContaining(Object.keys(tool)));
  expect(Object.keys(tool)).toEqual(expect.arrayContaining(Object.keys(compactForAgents(http))));
}
const content = (path: string) => `/api/v1/content/${ws.slug}/${path}`;

const CASES: Case[] = [
  {
    tool: 'list_workspaces',
    args: () => ({}),
    http: () => ({ method: 'GET', path: '/api/v1/workspaces' }),
    same: (t, h) =>
      expect(t.data.map((w: { id: string }) => w.id)).toEqual(h.data.map((w: { id: string }) => w.id)),
  },
  {
    tool: 'get_workspace',
    args: () => ({ workspace: ws.slug }),
    http: () => ({ method: 'GET', path: `/api/v1/workspaces/${ws.id}` }),
    same: (t, h) => expect(t).toEqual(compactForAgents(h)),
  },
  {
    tool: 'read_page',
    args: () => ({ workspace: ws.slug, path: 'index.md' }),
    http: () => ({ method: 'GET', path: content('index.md') }),
    same: (t, h) => expect(t).toEqual(compactForAgents(h)),
  },
  {
    tool: 'get_tree',
    args: () => ({ workspace: ws.slug }),
    http: () => ({ method: 'GET', path: `/api/v1/content/${ws.slug}/tree` }),
    same: (t, h) => expect(t).toEqual(compactForAgents(h)),
  },
  {
    tool: 'search',
    args: () => ({ workspace: ws.slug, query: 'welcome' }),
    http: () => ({ method: 'GET', path: `/api/v1/workspaces/${ws.id}/search?q=welcome` }),
    same: (t, h) => {
      const plain = h.results.map((r: { snippet: string }) => ({
        ...r,
        snippet: htmlToPlainText(r.snippet),
      }));
      expect(t).toEqual(compactForAgents({ ...h, results: plain }));
    },
  },
  {
    tool: 'get_activity',
    args: () => ({ workspace: ws.slug, limit: 5 }),
    http: () => ({ method: 'GET', path: `/api/v1/workspaces/${ws.id}/activity?limit=5` }),
    same: (t, h) =>
      expect(t.data.map((a: { id: string }) => a.id)).toEqual(h.data.map((a: { id: string }) => a.id)),
  },
  {
    tool: 'list_comments',
    args: () => ({ workspace: ws.slug, page: 'index.md' }),
    http: () => ({ method: 'GET', path: `/api/v1/workspaces/${ws.id}/comments?page=index.md` }),
    same: (t, h) => expect(t.data ?? []).toEqual(compactForAgents(h).data ?? []),
  },
  {
    tool: 'get_theme',
    args: () => ({ workspace: ws.slug }),
    http: () => ({ method: 'GET', path: `/api/v1/workspaces/${ws.id}/admin/settings` }),
    same: (t, h) => expect(t.theme).toBe(h.theme),
  },
  {
    tool: 'quality_scan',
    args: () => ({ workspace: ws.slug }),
    http: () => ({ method: 'GET', path: `/api/v1/workspaces/${ws.id}/quality` }),
    same: (t, h) => expect(t).toEqual(compactForAgents(h)),
  },
  {
    tool: 'validate_links',
    args: () => ({ workspace: ws.slug }),
    http: () => ({ method: 'GET', path: `/api/v1/workspaces/${ws.id}/quality` }),
    same: (t, h) => expect(t.count).toBe(h.issue_counts.dead_link + h.issue_counts.missing_anchor),
  },
  {
    tool: 'list_versions',
    args: () => ({ workspace: ws.slug }),
    http: () => ({ method: 'GET', path: `/api/v1/workspaces/${ws.id}/versions` }),
    same: (t, h) => expect(t).toEqual(compactForAgents(h)),
  },
  {
    tool: 'export',
    args: () => ({ workspace: ws.slug }),
    http: () => ({ method: 'GET', path: `/api/v1/workspaces/${ws.id}/export` }),
  },
  {
    tool: 'write_page',
    write: true,
    args: (n) => ({ workspace: ws.slug, path: `parity/w${n}.md`, title: 'W', content: 'body' }),
    http: (n) => ({ method: 'POST', path: content(`parity/w${n}.md`), body: { title: 'W', body: 'body' } }),
    same: (t, h) => sameFields(t.page, h),
  },
  {
    tool: 'add_comment',
    write: true,
    args: () => ({ workspace: ws.slug, page: 'index.md', body: 'Looks good' }),
    http: () => ({
      method: 'POST',
      path: `/api/v1/workspaces/${ws.id}/comments`,
      body: { page: 'index.md', body: 'Looks good' },
    }),
    same: (t, h) => sameFields(t, h),
  },
  {
    tool: 'update_theme',
    write: true,
    args: () => ({ workspace: ws.slug, theme: 'forest' }),
    http: () => ({
      method: 'PUT',
      path: `/api/v1/workspaces/${ws.id}/admin/settings`,
      body: { theme: 'forest' },
    }),
    same: (t, h) => expect(t.theme).toBe(h.theme),
  },
  {
    tool: 'create_version',
    write: true,
    args: (n) => ({ workspace: ws.slug, slug: `v${n}`, name: `V${n}` }),
    http: (n) => ({
      method: 'POST',
      path: `/api/v1/workspaces/${ws.id}/versions`,
      body: { slug: `v${n}`, name: `V${n}` },
    }),
    same: (t, h) => sameFields(t, h),
  },
  {
    tool: 'publish_workspace',
    write: true,
    args: () => ({ workspace: ws.slug }),
    http: () => ({ method: 'POST', path: `/api/v1/workspaces/${ws.id}/publish` }),
    same: (t, h) => sameFields(t, h),
  },
];

describe('MCP tools and HTTP routes agree', () => {
  let server: TestServer;
  let owner: TestUser;
  let stranger: TestUser;
  let ownerMcp: Client;
  let strangerMcp: Client;
  let readerMcp: Client;
  let readerKey: string;

  const key = async (user: TestUser, scopes?: string[]) =>
    (await server.request('POST', '/api/v1/api-keys', { token: user.token, body: { name: 'p', scopes } }))
      .body.key;

  beforeAll(async () => {
    server = await startServer();
    owner = await registerUser(server);
    stranger = await registerUser(server);
    ws = (await server.request('GET', '/api/v1/workspaces', { token: owner.token })).body.data[0];
    readerKey = await key(owner, ['read']);
    ownerMcp = await mcpOverHttp(`${server.url}/mcp`, await key(owner));
    strangerMcp = await mcpOverHttp(`${server.url}/mcp`, await key(stranger));
    readerMcp = await mcpOverHttp(`${server.url}/mcp`, readerKey);
  });
  afterAll(async () => {
    await Promise.all([ownerMcp, strangerMcp, readerMcp].map((c) => c.close()));
    await server.close();
  });

  it.each(CASES.map((c) => [c.tool, c] as const))(
    '%s gives the owner what its route gives',
    async (_name, c) => {
      const viaTool = await callTool(ownerMcp, `svc_${c.tool}`, c.args(1));
      const req = c.http(2);
      const viaHttp = await server.request(req.method, req.path, { token: owner.token, body: req.body });
      expect(viaTool.isError, viaTool.text).toBe(false);
      expect(viaHttp.status, viaHttp.text).toBeLessThan(300);
      c.same?.(viaTool.data, viaHttp.body);
    },
  );

  it.each(CASES.filter((c) => c.tool !== 'list_workspaces').map((c) => [c.tool, c] as const))(
    '%s refuses a stranger as its route does',
    async (_name, c) => {
      const viaTool = await callTool(strangerMcp, `svc_${c.tool}`, c.args(3));
      const req = c.http(4);
      const viaHttp = await server.request(req.method, req.path, { token: stranger.token, body: req.body });
      expect(viaTool.isError).toBe(true);
      expect(viaHttp.status).toBe(404);
      expect(viaTool.data.error).toBe(viaHttp.body.error);
    },
  );

  it.each(CASES.filter((c) => c.write).map((c) => [c.tool, c] as const))(
    '%s refuses a read-only key as its route does',
    async (_name, c) => {
      const viaTool = await callTool(readerMcp, `svc_${c.tool}`, c.args(5));
      const req = c.http(6);
      const viaHttp = await server.request(req.method, req.path, { token: readerKey, body: req.body });
      expect(viaHttp.status).toBe(403);
      expect(viaTool.data.error).toBe('FORBIDDEN');
    },
  );

  it('writing_assist and resolve_sync_conflict refuse as their routes do', async () => {
    const assist = await callTool(ownerMcp, 'svc_writing_assist', {
      workspace: ws.slug,
      action: 'improve',
      content: 'x',
    });
    const assistHttp = await server.request('POST', '/api/v1/ai/writing-assist', {
      token: owner.token,
      body: { action: 'improve', content: 'x' },
    });
    expect(assist.data.error).toBe('AI_DISABLED');
    expect(assistHttp.body.error).toBe('AI_DISABLED');
    const resolve = await callTool(ownerMcp, 'svc_resolve_sync_conflict', {
      workspace: ws.slug,
      conflict_id: '01ARZ3NDEKTSV4RRFFQ69G5FAV',
      resolution: 'ours',
    });
    const resolveHttp = await server.request(
      'POST',
      `/api/v1/workspaces/${ws.id}/sync/conflicts/01ARZ3NDEKTSV4RRFFQ69G5FAV/resolve`,
      { token: owner.token, body: { resolution: 'ours' } },
    );
    expect(resolveHttp.status).toBe(404);
    expect(resolve.data.error).toBe(resolveHttp.body.error);
  });
});
