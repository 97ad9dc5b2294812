/**
 * The answers the OpenAPI document gives for the content, history, change request, comment,
 * activity, search, sync, git remote, settings, template, upload, version, publishing,
 * preview and import routes and the published site, read through real HTTP from /api/openapi.json.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

type Answer = { description?: string; content?: Record<string, { schema?: Record<string, unknown> }> };
type Operation = { responses?: Record<string, Answer> };
type Document = { paths: Record<string, Record<string, Operation>> };

/** The route families these tests cover, as path patterns of the document. */
const FAMILIES = [
  /^\/api\/v1\/content\/\{workspace\}\/(tree|reorder|move|preview|uploads|\{\*\})/,
  /^\/api\/v1\/workspaces\/\{id\}\/(history|change-requests|comments|activity|page-activity|search)/,
  /^\/api\/v1\/workspaces\/\{id\}\/(sync|conflicts|git-remote|git-credentials|git-host-key|deploy-key)/,
  /^\/api\/v1\/workspaces\/\{id\}\/(admin\/settings|admin\/navigation|versions|publish|export|quality|imports)/,
  /^\/api\/v1\/(comments|conflicts|templates)\//,
  /^\/api\/v1\/templates$/,
  /^\/api\/v1\/users\/me\/onboarding$/,
];

/** `METHOD path` of each operation of the families whose 2xx answers say nothing of their body. */
function silentAnswers(doc: Document): string[] {
  const silent: string[] = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    if (!FAMILIES.some((family) => family.test(path))) continue;
    for (const [method, operation] of Object.entries(operations)) {
      const answers = Object.entries(operation.responses ?? {}).filter(([code]) => code.startsWith('2'));
      const described = answers.some(([code, answer]) => code === '204' || answer.content !== undefined);
      if (!described) silent.push(`${method.toUpperCase()} ${path}`);
    }
  }
  return silent;
}

const answerOf = (doc: Document, path: string, method: string, code: string): Answer | undefined =>
  doc.paths[path]?.[method]?.responses?.[code];

describe('OpenAPI answers of the content and publishing routes', () => {
  let server: TestServer;
  let doc: Document;

  beforeAll(async () => {
    server = await startServer();
    doc = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as Document;
  });
  afterAll(async () => {
    await server.close();
  });

  it('describes a body for every 2xx answer, or answers 204', () => {
    const covered = Object.keys(doc.paths).filter((path) => FAMILIES.some((family) => family.test(path)));
    // The families are really there: the patterns match the document's paths.
    expect(covered.length).toBeGreaterThan(40);
    expect(silentAnswers(doc)).toEqual([]);
    // An operation without a described answer is reported.
    const bare = structuredClone(doc);
    bare.paths['/api/v1/templates']!.get!.responses = { 200: { description: 'Default Response' } };
    expect(silentAnswers(bare)).toEqual(['GET /api/v1/templates']);
  });

  it('names the fields of JSON records and renders 204 without content', () => {
    const page = answerOf(doc, '/api/v1/content/{workspace}/{*}', 'get', '200');
    const schema = page?.content?.['application/json']?.schema as { properties: Record<string, unknown> };
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(['page_id', 'content_hash', 'restricted']),
    );
    const request = answerOf(doc, '/api/v1/workspaces/{id}/change-requests/{n}', 'get', '200');
    const detail = request?.content?.['application/json']?.schema as { properties: Record<string, unknown> };
    expect(Object.keys(detail.properties)).toEqual(expect.arrayContaining(['number', 'pages', 'reviews']));
    for (const [path, method] of [
      ['/api/v1/content/{workspace}/{*}', 'delete'],
      ['/api/v1/content/{workspace}/reorder', 'post'],
      ['/api/v1/comments/{id}', 'delete'],
      ['/api/v1/workspaces/{id}/versions/{slug}', 'delete'],
      ['/api/v1/workspaces/{id}/git-credentials', 'delete'],
    ] as const) {
      const answer = answerOf(doc, path, method, '204');
      expect(answer, `${method} ${path}`).toBeDefined();
      expect(answer?.content, `${method} ${path}`).toBeUndefined();
    }
  });

  it('gives files, archives and text their content type', () => {
    const types = (path: string, method: string) =>
      Object.keys(answerOf(doc, path, method, '200')?.content ?? {});
    expect(types('/api/v1/workspaces/{id}/export', 'get')).toEqual(['application/zip']);
    expect(types('/api/v1/workspaces/{id}/export', 'post')).toEqual(['application/zip']);
    expect(types('/api/v1/content/{workspace}/uploads/{filename}', 'get')).toEqual([
      'application/octet-stream',
    ]);
    // The published site, outside /api/: HTML pages and the files beside them.
    expect(types('/p/{workspace}/{*}', 'get')).toEqual(expect.arrayContaining(['text/html', 'text/css']));
    expect(types('/robots.txt', 'get')).toEqual(['text/plain']);
    expect(types('/api/v1/conflicts/{page_id}/{timestamp}/{version}', 'get')).toEqual([
      'text/markdown',
      'text/plain',
    ]);
  });
});
