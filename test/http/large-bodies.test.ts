/**
 * Bodies of megabytes: JSON request bodies above 1 MB are parsed on a thread of their own
 * (src/http/json-body.ts) under the same rules as small ones, and responses above 1 MB go
 * out in slices (src/http/large-payloads.ts), whole and in order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { createPage, createWorkspace } from '../helpers/workspace-access.js';

const TWO_MB_TEXT =
  'Megabytes of prose, line after line, with an accent: caf\u00e9 \u2014 and an emoji \u{1F600}.\n'.repeat(
    30_000,
  );

describe('large bodies', () => {
  let server: TestServer;
  let owner: TestUser;
  let hash: string;
  beforeAll(async () => {
    server = await startServer();
    owner = await registerUser(server);
    const ws = await createWorkspace(server, owner, 'big');
    await createPage(server, owner, ws, 'long.md', { title: 'Long', body: 'Short.' });
    hash = (await server.request('GET', '/api/v1/content/big/long.md', { token: owner.token })).body
      .content_hash;
  });
  afterAll(() => server.close());

  const put = (body: string) =>
    fetch(`${server.url}/api/v1/content/big/long.md`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      body,
    });

  it('writes a page from a JSON body of megabytes and answers it whole', async () => {
    expect(Buffer.byteLength(TWO_MB_TEXT)).toBeGreaterThan(2 * 1024 * 1024);
    const res = await put(JSON.stringify({ lastKnownHash: hash, body: TWO_MB_TEXT }));
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { content: string };
    expect(answer.content).toBe(TWO_MB_TEXT);

    const read = await fetch(`${server.url}/api/v1/content/big/long.md`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    const text = await read.text();
    expect(Buffer.byteLength(text)).toBeGreaterThan(2 * 1024 * 1024);
    expect((JSON.parse(text) as { content: string }).content).toBe(TWO_MB_TEXT);
  });

  it('answers the JSON text JSON.stringify would, escapes and a pair cut at a slice edge included', async () => {
    // Responses are streamed 256 Ki characters at a time: an emoji straddles the first cut.
    const body = `${'x'.repeat(256 * 1024 - 1)}\u{1F600} "quoted" back\\slash\ttab\u0001\n${TWO_MB_TEXT}`;
    const current = await server.request('GET', '/api/v1/content/big/long.md', { token: owner.token });
    const res = await put(JSON.stringify({ lastKnownHash: current.body.content_hash, body }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    const text = await res.text();
    const answer = JSON.parse(text) as Record<string, unknown>;
    expect(answer.content).toBe(body);
    expect(text).toBe(JSON.stringify(answer));
  });

  it('refuses a body of megabytes that is not JSON, or smuggles a prototype, as a small one is refused', async () => {
    const broken = await put(`{"lastKnownHash": "x", "body": "${'a'.repeat(2 * 1024 * 1024)}"`);
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { error: string }).error).toBe('VALIDATION_ERROR');

    const small = await put('{"__proto__": {"admin": true}, "body": "x"}');
    const large = await put(`{"__proto__": {"admin": true}, "body": "${'a'.repeat(2 * 1024 * 1024)}"}`);
    expect(small.status).toBe(400);
    expect(large.status).toBe(small.status);
    expect(await large.json()).toMatchObject({ error: ((await small.json()) as { error: string }).error });

    const constructor = await put(
      `{"body": "${'a'.repeat(2 * 1024 * 1024)}", "x": {"constructor": {"prototype": {"admin": true}}}}`,
    );
    expect(constructor.status).toBe(400);
  });
});
