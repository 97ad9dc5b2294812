import { describe, expect, it, vi } from 'vitest';
import { AppError } from '../errors.js';
import { parseRetryAfter, postJson, RETRY_AFTER_CAP_MS, SseParser, type SseEvent } from './http.js';

function parseAll(chunks: string[]): SseEvent[] {
  const parser = new SseParser();
  return [...chunks.flatMap((chunk) => parser.push(chunk)), ...parser.end()];
}

const STREAM =
  ': comment line\n' +
  'event: content_block_delta\n' +
  'data: {"text":"héllo"}\n' +
  '\n' +
  'data: first line\r\n' +
  'data:second line\r\n' +
  'id: 7\r\n' +
  '\r\n' +
  'event: ping\n' +
  '\n' +
  'data\r' +
  'data: [DONE]\r' +
  '\r';

const EXPECTED: SseEvent[] = [
  { event: 'content_block_delta', data: '{"text":"héllo"}' },
  { event: 'message', data: 'first line\nsecond line', id: '7' },
  { event: 'message', data: '\n[DONE]', id: '7' },
];

describe('SseParser', () => {
  it('parses events, comments, CRLF, CR, multi-line data and field forms', () => {
    expect(parseAll([STREAM])).toEqual(EXPECTED);
  });

  it('gives the same events however the stream is split into chunks', () => {
    for (let cut = 1; cut < STREAM.length; cut++) {
      expect(parseAll([STREAM.slice(0, cut), STREAM.slice(cut)]), `cut at ${cut}`).toEqual(EXPECTED);
    }
    expect(parseAll([...STREAM])).toEqual(EXPECTED);
  });

  it('treats a CR at the end of a chunk and an LF in the next as one line break', () => {
    expect(parseAll(['data: a\r', '\ndata: b\r', '\n\r', '\n'])).toEqual([
      { event: 'message', data: 'a\nb' },
    ]);
  });

  it('strips a leading BOM and delivers a last event without its blank line at the end', () => {
    expect(parseAll(['\uFEFFdata: x\n\ndata: y'])).toEqual([
      { event: 'message', data: 'x' },
      { event: 'message', data: 'y' },
    ]);
  });

  it('returns nothing until an event is complete', () => {
    const parser = new SseParser();
    expect(parser.push('data: {"a":')).toEqual([]);
    expect(parser.push('1}\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ event: 'message', data: '{"a":1}' }]);
  });
});

describe('parseRetryAfter', () => {
  const headers = (init: Record<string, string>) => new Headers(init);

  it('reads seconds, retry-after-ms and HTTP dates, capped', () => {
    expect(parseRetryAfter(headers({ 'retry-after': '2' }))).toBe(2000);
    expect(parseRetryAfter(headers({ 'retry-after-ms': '750', 'retry-after': '2' }))).toBe(750);
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter(headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:04 GMT' }), now)).toBe(4000);
    expect(parseRetryAfter(headers({ 'retry-after': 'Tue, 31 Dec 2024 00:00:00 GMT' }), now)).toBe(0);
    expect(parseRetryAfter(headers({ 'retry-after': '86400' }))).toBe(RETRY_AFTER_CAP_MS);
  });

  it('ignores a missing or unreadable value', () => {
    expect(parseRetryAfter(headers({}))).toBeUndefined();
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }))).toBeUndefined();
  });
});

describe('ProviderResponse.events', () => {
  it('restarts the deadline with every chunk, and times out after a full silence', async () => {
    vi.useFakeTimers();
    try {
      let source!: ReadableStreamDefaultController<Uint8Array>;
      const body = new ReadableStream<Uint8Array>({ start: (controller) => void (source = controller) });
      const response = await postJson({
        provider: 'anthropic',
        url: 'http://127.0.0.1:9/never',
        headers: {},
        body: {},
        timeoutMs: 1000,
        // Like the real fetch, abort errors the body being read.
        fetch: (async (_url: string, init: RequestInit) => {
          init.signal?.addEventListener('abort', () => source.error(init.signal?.reason));
          return new Response(body);
        }) as typeof fetch,
        sleep: async () => undefined,
      });
      const seen: string[] = [];
      const consumed = (async () => {
        for await (const event of response.events()) seen.push(event.data);
      })().catch((err: unknown) => err);
      for (const n of [1, 2, 3]) {
        await vi.advanceTimersByTimeAsync(800);
        source.enqueue(new TextEncoder().encode(`data: ${n}\n\n`));
      }
      await vi.advanceTimersByTimeAsync(999);
      expect(seen).toEqual(['1', '2', '3']);
      await vi.advanceTimersByTimeAsync(1);
      const err = await consumed;
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).details).toEqual({
        provider: 'anthropic',
        reason: 'timeout',
        timeout_ms: 1000,
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it('decodes UTF-8 split across network chunks', async () => {
    const bytes = new TextEncoder().encode('data: é€😀\n\n');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const byte of bytes) controller.enqueue(Uint8Array.of(byte));
        controller.close();
      },
    });
    const response = await postJson({
      provider: 'openai',
      url: 'http://127.0.0.1:9/never',
      headers: {},
      body: {},
      timeoutMs: 1000,
      fetch: (async () => new Response(body)) as typeof fetch,
      sleep: async () => undefined,
    });
    const events: SseEvent[] = [];
    for await (const event of response.events()) events.push(event);
    expect(events).toEqual([{ event: 'message', data: 'é€😀' }]);
  });
});
