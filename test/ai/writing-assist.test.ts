import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WRITING_ACTIONS } from '../../src/ai/prompts.js';
import { FAKE_ERROR_SECRET, startFakeAiServer, type FakeAiServer } from '../helpers/fake-ai-server.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';

const KEY = 'sk-test-secret';

/** Folio configured against the fake provider in the given wire format. */
const aiEnv = (provider: 'openai' | 'anthropic', fake: FakeAiServer) => ({
  AI_PROVIDER: provider,
  AI_BASE_URL: fake.url,
  AI_API_KEY: KEY,
  AI_MODEL: 'test-model',
});

describe('AI without a provider', () => {
  let server: TestServer;
  let user: TestUser;
  beforeAll(async () => {
    server = await startServer({ rateLimits: { ai: { limit: 3 } } });
    user = await registerUser(server);
  });
  afterAll(() => server.close());

  it('reports AI as disabled at both status paths, without signing in', async () => {
    for (const path of ['/api/v1/ai/status', '/api/ai/status']) {
      const res = await server.request('GET', path);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ enabled: false, provider: null, model: null });
    }
  });

  it('answers writing assist and chat with 503 AI_DISABLED and the error body', async () => {
    const assist = await server.request('POST', '/api/v1/ai/writing-assist', {
      token: user.token,
      body: { action: 'improve', content: 'Some text.' },
    });
    expect(assist.status).toBe(503);
    expect(assist.body).toMatchObject({ error: 'AI_DISABLED', message: expect.any(String) });
    expect(assist.body.request_id).toBe(assist.headers.get('x-request-id'));
    const chat = await server.request('POST', '/api/v1/ai/chat', {
      token: user.token,
      body: { messages: [{ role: 'user', content: 'Hello?' }] },
    });
    expect(chat.status).toBe(503);
    expect(chat.body.error).toBe('AI_DISABLED');
  });

  it('needs a signed-in caller for the AI actions', async () => {
    const res = await server.request('POST', '/api/v1/ai/writing-assist', {
      body: { action: 'improve', content: 'x' },
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('UNAUTHORIZED');
  });

  it('counts AI requests per organization and answers 429 with the rate-limit headers', async () => {
    const limited = await registerUser(server);
    const other = await registerUser(server);
    const call = (token: string) =>
      server.request('POST', '/api/v1/ai/writing-assist', {
        token,
        body: { action: 'improve', content: 'x' },
      });
    for (let i = 0; i < 3; i++) expect((await call(limited.token)).status).toBe(503);
    const refused = await call(limited.token);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('RATE_LIMITED');
    for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after']) {
      expect(refused.headers.get(header)).not.toBeNull();
    }
    expect((await call(other.token)).status).toBe(503);
  });
});

describe.each(['openai', 'anthropic'] as const)('writing assist through %s', (provider) => {
  let fake: FakeAiServer;
  let server: TestServer;
  let user: TestUser;
  const providerPath = provider === 'openai' ? '/chat/completions' : '/v1/messages';

  beforeAll(async () => {
    fake = await startFakeAiServer();
    server = await startServer({ env: aiEnv(provider, fake) });
    user = await registerUser(server);
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  const assist = (body: unknown, token = user.token) =>
    server.request('POST', '/api/v1/ai/writing-assist', { token, body });

  /** The system prompt and the user's text of a recorded request, in either wire format. */
  const promptOf = (body: {
    system?: string;
    messages: Array<{ role: string; content: string }>;
  }): { system: string; user: string } => ({
    system:
      provider === 'openai' ? (body.messages.find((m) => m.role === 'system')?.content ?? '') : body.system!,
    user: body.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '',
  });

  it('reports the provider and model at both status paths, and never the key or base URL', async () => {
    for (const path of ['/api/v1/ai/status', '/api/ai/status']) {
      const res = await server.request('GET', path);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ enabled: true, provider, model: 'test-model' });
      expect(res.text).not.toContain(KEY);
      expect(res.text).not.toContain(fake.url);
    }
  });

  it.each(WRITING_ACTIONS)(
    '%s reaches the provider with the content and answers its result',
    async (action) => {
      const content = `# Setup\n\nThe ${action} text: run \`folio serve\` and open the app.`;
      const before = fake.requests.length;
      const res = await assist({
        action,
        content,
        ...(action === 'translate' ? { language: 'German' } : {}),
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ action, result: `Fake ${action} answer for: ${content.slice(0, 40)}` });
      expect(res.text).not.toContain(KEY);

      expect(fake.requests).toHaveLength(before + 1);
      const sent = fake.requests.at(-1)!;
      expect(sent.path).toBe(providerPath);
      expect(sent.body.model).toBe('test-model');
      if (provider === 'openai') expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
      else expect(sent.headers['x-api-key']).toBe(KEY);
      const prompt = promptOf(sent.body);
      expect(prompt.user).toBe(content);
      expect(prompt.system).toContain(`Task: ${action}`);
      if (action === 'translate') expect(prompt.system).toContain('German');
    },
  );

  it('refuses translate without a language and an unknown action with 400, without calling the provider', async () => {
    const before = fake.requests.length;
    const noLanguage = await assist({ action: 'translate', content: 'Hallo' });
    expect(noLanguage.status).toBe(400);
    expect(noLanguage.body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field: 'language' } });
    expect(noLanguage.body.request_id).toEqual(expect.any(String));

    const unknown = await assist({ action: 'rewrite', content: 'Text' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field: 'action' } });

    const empty = await assist({ action: 'improve', content: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.details.field).toBe('content');

    const notJson = await server.request('POST', '/api/v1/ai/writing-assist', {
      token: user.token,
      body: '{"action":',
    });
    expect(notJson.status).toBe(400);
    expect(notJson.body.error).toBe('VALIDATION_ERROR');
    expect(fake.requests.length).toBe(before);
  });

  it('refuses an API key without the write scope', async () => {
    const key = await server.request('POST', '/api/v1/api-keys', {
      token: user.token,
      body: { name: 'reader', scopes: ['read'] },
    });
    const res = await assist({ action: 'improve', content: 'Text' }, key.body.key);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('FORBIDDEN');
  });

  it('turns a provider failure that survives the retry into 502 AI_PROVIDER_ERROR without leaking', async () => {
    fake.failNext(500, 2);
    const before = fake.requests.length;
    const res = await assist({ action: 'improve', content: 'Text to improve' });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({
      error: 'AI_PROVIDER_ERROR',
      message: expect.any(String),
      request_id: expect.any(String),
    });
    expect(fake.requests.length).toBe(before + 2);
    expect(res.text).not.toContain(FAKE_ERROR_SECRET);
    expect(res.text).not.toContain(KEY);

    // One failure is absorbed by the provider layer's retry.
    fake.failNext(503, 1);
    expect((await assist({ action: 'improve', content: 'Text to improve' })).status).toBe(200);
  });
});
