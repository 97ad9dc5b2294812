import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FAKE_ERROR_SECRET,
  fakeAnswer,
  fakeDeltas,
  startFakeAiServer,
  type FakeAiServer,
} from '../helpers/fake-ai-server.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { postEventStream } from '../helpers/sse.js';
import { registerUser, type TestUser } from '../helpers/users.js';

const KEY = 'sk-test-secret';
const OTHER_ORG_SECRET = 'ZEBRA-SECRET-991';
const THRESHOLD_TEXT = 'Set the frobnicator threshold to 42 in folio.yaml before the first run.';

interface Page {
  page_id: string;
  path: string;
  title: string;
}

describe.each(['openai', 'anthropic'] as const)('documentation chat through %s', (provider) => {
  let fake: FakeAiServer;
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let aliceWs: string;
  let bobWs: string;
  let threshold: Page;

  /** The caller's starter workspace (every registration creates exactly one). */
  async function starterWorkspace(user: TestUser): Promise<string> {
    const res = await server.request('GET', '/api/v1/workspaces', { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    return res.body.data[0].slug;
  }

  async function createPage(user: TestUser, ws: string, path: string, title: string, body: string) {
    const res = await server.request('POST', `/api/v1/content/${ws}/${path}`, {
      token: user.token,
      body: { title, body },
    });
    expect(res.status, res.text).toBe(201);
    return { page_id: res.body.page_id, path: res.body.path, title: res.body.title } as Page;
  }

  const chat = (body: unknown, token = alice.token) =>
    server.request('POST', '/api/v1/ai/chat', { token, body });

  const ask = (content: string, extra: Record<string, unknown> = {}) => ({
    messages: [{ role: 'user', content }],
    workspace_id: aliceWs,
    ...extra,
  });

  /** The system prompt (where the excerpts go) of the last provider request. */
  const lastSystemPrompt = (): string => {
    const body = fake.requests.at(-1)!.body;
    return provider === 'openai'
      ? body.messages.find((m: { role: string }) => m.role === 'system').content
      : body.system;
  };

  beforeAll(async () => {
    fake = await startFakeAiServer();
    server = await startServer({
      env: { AI_PROVIDER: provider, AI_BASE_URL: fake.url, AI_API_KEY: KEY, AI_MODEL: 'test-model' },
    });
    alice = await registerUser(server);
    bob = await registerUser(server);
    aliceWs = await starterWorkspace(alice);
    bobWs = await starterWorkspace(bob);
    threshold = await createPage(alice, aliceWs, 'guides/frobnicator.md', 'Frobnicator', THRESHOLD_TEXT);
    await createPage(alice, aliceWs, 'notes/cooking.md', 'Cooking', 'Boil the pasta for nine minutes.');
    // Same keywords in another organization's workspace: only confinement keeps it out.
    await createPage(
      bob,
      bobWs,
      'secret/frobnicator.md',
      'Frobnicator launch',
      `The frobnicator threshold launch code is ${OTHER_ORG_SECRET}.`,
    );
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  it('answers from the readable workspace only and names its pages as sources', async () => {
    const question = 'What frobnicator threshold should I set?';
    const res = await chat(ask(question));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ answer: fakeAnswer('', question), sources: [threshold] });

    const sent = JSON.stringify(fake.requests.at(-1)!.body);
    expect(sent).toContain(THRESHOLD_TEXT);
    expect(sent).not.toContain(OTHER_ORG_SECRET);
    expect(sent).not.toContain('Boil the pasta');
    expect(lastSystemPrompt()).toContain('path="guides/frobnicator.md"');
    expect(res.text).not.toContain(KEY);
  });

  it("uses the caller's only workspace when none is named, and answers 404 for another organization's", async () => {
    const implicit = await chat({ messages: [{ role: 'user', content: 'frobnicator threshold' }] });
    expect(implicit.status).toBe(200);
    expect(implicit.body.sources).toEqual([threshold]);

    const before = fake.requests.length;
    const foreign = await chat(ask('frobnicator threshold', { workspace_id: bobWs }));
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('NOT_FOUND');
    expect(fake.requests.length).toBe(before);
    expect(foreign.text).not.toContain(OTHER_ORG_SECRET);
  });

  it('falls back to significant words, then to the earlier question of the conversation', async () => {
    // "beginners" is on no page, so the whole question matches nothing; "frobnicator" alone does.
    const words = await chat(ask('Please explain the frobnicator for beginners'));
    expect(words.status).toBe(200);
    expect(words.body.sources).toEqual([threshold]);

    const followUp = await chat({
      workspace_id: aliceWs,
      messages: [
        { role: 'user', content: 'Where is the frobnicator threshold set?' },
        { role: 'assistant', content: 'In folio.yaml.' },
        { role: 'user', content: 'Which units apply?' },
      ],
    });
    expect(followUp.status).toBe(200);
    expect(followUp.body.sources).toEqual([threshold]);
    // The whole conversation reaches the provider, in order.
    const sent = fake.requests.at(-1)!.body.messages.filter((m: { role: string }) => m.role !== 'system');
    expect(sent.map((m: { content: string }) => m.content)).toEqual([
      'Where is the frobnicator threshold set?',
      'In folio.yaml.',
      'Which units apply?',
    ]);
  });

  it('says no excerpts matched when nothing does, with no sources', async () => {
    const res = await chat(ask('quantum entanglement'));
    expect(res.status).toBe(200);
    expect(res.body.sources).toEqual([]);
    expect(lastSystemPrompt()).toContain('No documentation excerpts matched');
    expect(lastSystemPrompt()).not.toContain(THRESHOLD_TEXT);
  });

  it('refuses malformed conversations with 400', async () => {
    const empty = await chat({ messages: [], workspace_id: aliceWs });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field: 'messages' } });
    const lastFromAssistant = await chat({
      workspace_id: aliceWs,
      messages: [{ role: 'assistant', content: 'Hi' }],
    });
    expect(lastFromAssistant.status).toBe(400);
    const badRole = await chat({ workspace_id: aliceWs, messages: [{ role: 'system', content: 'x' }] });
    expect(badRole.status).toBe(400);
  });

  it('streams the answer as token events in order, then the sources, then done', async () => {
    const question = 'What frobnicator threshold should I set?';
    const res = await postEventStream(`${server.url}/api/v1/ai/chat`, {
      token: alice.token,
      body: ask(question),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const answer = fakeAnswer('', question);
    const tokens = res.events.filter((e) => e.event === 'token');
    expect(tokens.map((e) => e.data.text)).toEqual(fakeDeltas(answer));
    expect(res.events.slice(tokens.length)).toEqual([
      { event: 'sources', data: { sources: [threshold] } },
      { event: 'done', data: {} },
    ]);
    expect(fake.requests.at(-1)!.body.stream).toBe(true);
    expect(res.text).not.toContain(OTHER_ORG_SECRET);
  });

  it('delivers tokens while the provider is still answering (no buffering)', async () => {
    // The provider sends two deltas and then never finishes: the test can only end if both
    // arrived on their own, before any end of stream.
    fake.stallNext(1, { midStream: true });
    const res = await postEventStream(`${server.url}/api/v1/ai/chat`, {
      token: alice.token,
      body: ask('frobnicator threshold'),
      until: (events) => events.filter((e) => e.event === 'token').length >= 2,
    });
    expect(res.status).toBe(200);
    const answer = fakeAnswer('', 'frobnicator threshold');
    expect(res.events.map((e) => e.data.text)).toEqual(fakeDeltas(answer).slice(0, 2));
  });

  it('reports a provider failure after the first tokens as an error event without leaking', async () => {
    fake.streamErrorNext();
    const res = await postEventStream(`${server.url}/api/v1/ai/chat`, {
      token: alice.token,
      body: ask('frobnicator threshold'),
    });
    expect(res.status).toBe(200);
    const last = res.events.at(-1)!;
    expect(last.event).toBe('error');
    expect(last.data).toMatchObject({
      error: 'AI_PROVIDER_ERROR',
      message: expect.any(String),
      request_id: expect.any(String),
    });
    expect(res.events.filter((e) => e.event === 'token')).toHaveLength(2);
    expect(res.events.some((e) => e.event === 'done')).toBe(false);
    expect(res.text).not.toContain(FAKE_ERROR_SECRET);
    expect(res.text).not.toContain(KEY);
  });

  it('turns a provider failure that survives the retry into a 502 error body, streamed or not', async () => {
    fake.failNext(500, 2);
    const plain = await chat(ask('frobnicator threshold'));
    expect(plain.status).toBe(502);
    expect(plain.body).toMatchObject({ error: 'AI_PROVIDER_ERROR', request_id: expect.any(String) });
    expect(plain.text).not.toContain(FAKE_ERROR_SECRET);
    expect(plain.text).not.toContain(KEY);

    // Before the first token nothing is committed yet, so the stream request gets a plain 502 too.
    fake.failNext(500, 2);
    const streamed = await postEventStream(`${server.url}/api/v1/ai/chat`, {
      token: alice.token,
      body: ask('frobnicator threshold'),
    });
    expect(streamed.status).toBe(502);
    expect(JSON.parse(streamed.text)).toMatchObject({ error: 'AI_PROVIDER_ERROR' });
    expect(streamed.text).not.toContain(FAKE_ERROR_SECRET);
    expect(streamed.text).not.toContain(KEY);
  });
});
