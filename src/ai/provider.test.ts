import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  FAKE_ERROR_SECRET,
  fakeAnswer,
  fakeDeltas,
  startFakeAiServer,
  type FakeAiServer,
} from '../../test/helpers/fake-ai-server.js';
import { AppError } from '../errors.js';
import { ANTHROPIC_DEFAULT_MAX_TOKENS } from './anthropic.js';
import { DEFAULT_BACKOFF_MS, RETRY_AFTER_CAP_MS } from './http.js';
import { buildWritingPrompt } from './prompts.js';
import { createAiProvider, type AiProvider, type AiProviderConfig, type AiRequest } from './provider.js';

const API_KEY = 'sk-test-SECRET-KEY-1234567890';
const SYSTEM = 'You are a careful assistant.';
const USER = 'How do I configure the git remote of a workspace?';
const REQUEST: AiRequest = { system: SYSTEM, messages: [{ role: 'user', content: USER }] };
const EXPECTED = fakeAnswer(SYSTEM, USER);

let server: FakeAiServer;
let sleep: ReturnType<typeof vi.fn<(ms: number) => Promise<void>>>;

beforeAll(async () => {
  server = await startFakeAiServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  sleep = vi.fn(async () => undefined);
});

async function collect(iterable: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const delta of iterable) out.push(delta);
  return out;
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected a rejection'),
    (err: unknown) => err,
  );
}

/** Asserts an AI_PROVIDER_ERROR that shows neither the key nor the provider's body. */
function expectProviderError(err: unknown, details: Record<string, unknown>): AppError {
  expect(err).toBeInstanceOf(AppError);
  const error = err as AppError;
  expect(error.code).toBe('AI_PROVIDER_ERROR');
  expect(error.status).toBe(502);
  expect(error.details).toMatchObject(details);
  const visible = JSON.stringify({
    message: error.message,
    details: error.details,
    cause: String(error.cause),
  });
  expect(visible).not.toContain(API_KEY);
  expect(visible).not.toContain(FAKE_ERROR_SECRET);
  expect(visible).not.toContain('hunter2');
  return error;
}

const formats = [
  { provider: 'openai', baseUrl: () => `${server.url}/v1`, path: '/v1/chat/completions' },
  { provider: 'anthropic', baseUrl: () => server.url, path: '/v1/messages' },
] as const;

describe.each(formats)('$provider provider against the fake server', ({ provider, baseUrl, path }) => {
  const make = (extra: Partial<AiProviderConfig> = {}): AiProvider => {
    const ai = createAiProvider({
      provider,
      baseUrl: baseUrl(),
      apiKey: API_KEY,
      model: 'test-model',
      sleep,
      ...extra,
    });
    if (!ai) throw new Error('provider expected');
    return ai;
  };

  it('completes with the answer text and reports its name and model', async () => {
    const ai = make();
    expect(ai.name).toBe(provider);
    expect(ai.model).toBe('test-model');
    await expect(ai.complete(REQUEST)).resolves.toBe(EXPECTED);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ method: 'POST', path });
    expect(server.requests[0]?.body).toMatchObject({ model: 'test-model', stream: false });
  });

  it('streams several deltas in order that join to the full answer', async () => {
    const deltas = await collect(make().stream(REQUEST));
    expect(deltas).toEqual(fakeDeltas(EXPECTED));
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe(EXPECTED);
    expect(server.requests[0]?.body).toMatchObject({ model: 'test-model', stream: true });
  });

  it('sends a writing prompt whose answer comes back through the same path', async () => {
    const prompt = buildWritingPrompt({ action: 'summarize', content: '# Setup\n\nInstall the thing.' });
    await expect(make().complete(prompt)).resolves.toBe(
      'Fake summarize answer for: # Setup\n\nInstall the thing.',
    );
  });

  it('retries once after a 500, waiting the default backoff', async () => {
    server.failNext(500, 1);
    await expect(make().complete(REQUEST)).resolves.toBe(EXPECTED);
    expect(server.requests).toHaveLength(2);
    expect(sleep).toHaveBeenCalledTimes(1);
    expect(sleep.mock.calls[0]?.[0]).toBe(DEFAULT_BACKOFF_MS);
  });

  it('retries a stream that fails before its first byte', async () => {
    server.failNext(503, 1);
    expect((await collect(make().stream(REQUEST))).join('')).toBe(EXPECTED);
    expect(server.requests).toHaveLength(2);
  });

  it('gives up after two 500s with AI_PROVIDER_ERROR and no key or provider body', async () => {
    server.failNext(500, 2);
    const err = expectProviderError(await caught(make().complete(REQUEST)), { provider, status: 500 });
    expect(err.message).toBe('The AI provider returned an error (status 500)');
    expect(err.details).toEqual({ provider, status: 500 });
    expect(server.requests).toHaveLength(2);
  });

  it('honours Retry-After on a 429', async () => {
    server.failNext(429, 1, { retryAfter: '3' });
    await expect(make().complete(REQUEST)).resolves.toBe(EXPECTED);
    expect(sleep.mock.calls.map((call) => call[0])).toEqual([3000]);
  });

  it('caps a long Retry-After and reports a second 429 with retryAfter', async () => {
    server.failNext(429, 2, { retryAfter: '3600' });
    const err = expectProviderError(await caught(make().complete(REQUEST)), { provider, status: 429 });
    expect(sleep.mock.calls.map((call) => call[0])).toEqual([RETRY_AFTER_CAP_MS]);
    expect(err.retryAfter).toBe(RETRY_AFTER_CAP_MS / 1000);
  });

  it('does not retry a 400', async () => {
    server.failNext(400, 1);
    expectProviderError(await caught(make().complete(REQUEST)), { provider, status: 400 });
    expect(server.requests).toHaveLength(1);
    expect(sleep).not.toHaveBeenCalled();
  });

  it('times out without retrying', async () => {
    server.stallNext(1);
    const err = await caught(make({ timeoutMs: 150 }).complete(REQUEST));
    expectProviderError(err, { provider, reason: 'timeout', timeout_ms: 150 });
    expect(server.requests).toHaveLength(1);
  });

  it('times out a stream that goes silent after some deltas', async () => {
    server.stallNext(1, { midStream: true });
    const seen: string[] = [];
    const consume = async () => {
      for await (const delta of make({ timeoutMs: 500 }).stream(REQUEST)) seen.push(delta);
    };
    expectProviderError(await caught(consume()), { provider, reason: 'timeout' });
    expect(seen).toEqual(fakeDeltas(EXPECTED).slice(0, 2));
  });

  it('turns an error reported inside the stream into AI_PROVIDER_ERROR', async () => {
    server.streamErrorNext();
    const seen: string[] = [];
    const consume = async () => {
      for await (const delta of make().stream(REQUEST)) seen.push(delta);
    };
    const err = expectProviderError(await caught(consume()), { provider, reason: 'stream_error' });
    if (provider === 'anthropic') expect(err.details?.error_type).toBe('overloaded_error');
    expect(seen).toHaveLength(2);
  });

  it('rejects with the caller’s abort reason, not a provider error', async () => {
    server.stallNext(1);
    const controller = new AbortController();
    const pending = make().complete({ ...REQUEST, signal: controller.signal });
    const reason = new Error('client went away');
    await vi.waitFor(() => expect(server.requests).toHaveLength(1));
    controller.abort(reason);
    expect(await caught(pending)).toBe(reason);
    expect(server.requests).toHaveLength(1);
  });

  it('retries once on a network error, then reports it', async () => {
    const gone = await startFakeAiServer();
    await gone.close();
    const ai = make({ baseUrl: provider === 'openai' ? `${gone.url}/v1` : gone.url });
    expectProviderError(await caught(ai.complete(REQUEST)), { provider, reason: 'network' });
    expect(sleep).toHaveBeenCalledTimes(1);
  });
});

describe('openai wire format', () => {
  it('sends Bearer auth, the system message first and max_tokens when given', async () => {
    const ai = createAiProvider({ provider: 'openai', baseUrl: `${server.url}/v1/`, apiKey: API_KEY, sleep });
    await ai?.complete({ ...REQUEST, maxTokens: 321 });
    const { headers, body } = server.requests[0] ?? {};
    expect(headers?.authorization).toBe(`Bearer ${API_KEY}`);
    expect(headers?.['content-type']).toBe('application/json');
    expect(body).toEqual({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: USER },
      ],
      max_tokens: 321,
      stream: false,
    });
  });

  it('works without a key or /v1 (local servers): no Authorization, no max_tokens', async () => {
    const ai = createAiProvider({ provider: 'openai', baseUrl: server.url, model: 'llama3.2', sleep });
    await expect(ai?.complete(REQUEST)).resolves.toBe(EXPECTED);
    const { path, headers, body } = server.requests[0] ?? {};
    expect(path).toBe('/chat/completions');
    expect(headers).not.toHaveProperty('authorization');
    expect(body).not.toHaveProperty('max_tokens');
    expect(body?.model).toBe('llama3.2');
  });
});

describe('anthropic wire format', () => {
  it('sends x-api-key, anthropic-version, a top-level system and the default max_tokens', async () => {
    const ai = createAiProvider({ provider: 'anthropic', baseUrl: server.url, apiKey: API_KEY, sleep });
    await ai?.complete(REQUEST);
    const { headers, body } = server.requests[0] ?? {};
    expect(headers?.['x-api-key']).toBe(API_KEY);
    expect(headers?.['anthropic-version']).toBe('2023-06-01');
    expect(headers).not.toHaveProperty('authorization');
    expect(body).toEqual({
      model: 'claude-sonnet-4-5',
      system: SYSTEM,
      messages: [{ role: 'user', content: USER }],
      max_tokens: ANTHROPIC_DEFAULT_MAX_TOKENS,
      stream: false,
    });
  });

  it('tolerates a base URL ending in /v1', async () => {
    const ai = createAiProvider({
      provider: 'anthropic',
      baseUrl: `${server.url}/v1`,
      apiKey: API_KEY,
      sleep,
    });
    await ai?.complete({ ...REQUEST, maxTokens: 100 });
    expect(server.requests[0]?.path).toBe('/v1/messages');
    expect(server.requests[0]?.body?.max_tokens).toBe(100);
  });
});

describe('createAiProvider', () => {
  it('returns null when no provider is configured', () => {
    expect(createAiProvider({})).toBeNull();
    expect(createAiProvider({ provider: '', apiKey: API_KEY })).toBeNull();
    expect(createAiProvider({ provider: '   ' })).toBeNull();
  });

  it('throws on an unknown provider name', () => {
    expect(() => createAiProvider({ provider: 'gemini' })).toThrow(/openai.*anthropic/);
  });

  it.each([
    ['openai', 'https://api.openai.com/v1/chat/completions', 'gpt-4o-mini'],
    ['Anthropic', 'https://api.anthropic.com/v1/messages', 'claude-sonnet-4-5'],
  ])(
    '%s defaults to its public endpoint and model, and prefers a configured model',
    async (name, url, model) => {
      const urls: string[] = [];
      const fakeFetch = vi.fn(async (input: string | URL | Request) => {
        urls.push(String(input));
        return Response.json({
          choices: [{ message: { content: 'ok' } }],
          content: [{ type: 'text', text: 'ok' }],
        });
      });
      const ai = createAiProvider({ provider: name, apiKey: 'k', fetch: fakeFetch as typeof fetch });
      expect(ai?.model).toBe(model);
      await expect(ai?.complete(REQUEST)).resolves.toBe('ok');
      expect(urls).toEqual([url]);
      expect(createAiProvider({ provider: name, model: ' my-model ' })?.model).toBe('my-model');
    },
  );

  it('rejects an answer without the expected shape', async () => {
    const fakeFetch = (async () => Response.json({ unexpected: FAKE_ERROR_SECRET })) as typeof fetch;
    for (const provider of ['openai', 'anthropic']) {
      const ai = createAiProvider({ provider, apiKey: API_KEY, fetch: fakeFetch });
      expectProviderError(await caught(ai!.complete(REQUEST)), { provider, status: 200 });
    }
  });
});
