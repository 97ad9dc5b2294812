/**
 * Transport shared by the AI providers: a deadline per attempt, one retry on
 * 429/5xx/network errors, failures mapped to AI_PROVIDER_ERROR, and an SSE
 * parser. Nothing here puts a provider's response body or the API key into
 * an error, its details or a log line: error bodies are discarded unread.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { AppError } from '../errors.js';

export type ProviderName = 'openai' | 'anthropic';
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_BACKOFF_MS = 500;
/** The longest Retry-After we wait before the one retry; longer waits are shortened to this. */
export const RETRY_AFTER_CAP_MS = 10_000;

export const defaultSleep: Sleep = (ms, signal) => delay(ms, undefined, { signal });

/** What every provider needs to talk HTTP; tests inject fetch and sleep. */
export interface HttpOptions {
  timeoutMs: number;
  fetch: typeof fetch;
  sleep: Sleep;
}

export interface PostOptions extends HttpOptions {
  provider: ProviderName;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  signal?: AbortSignal | undefined;
}

/** AI_PROVIDER_ERROR with the generic message for an HTTP status. */
export function statusError(provider: ProviderName, status: number, retryAfterMs?: number): AppError {
  return new AppError('AI_PROVIDER_ERROR', `The AI provider returned an error (status ${status})`, {
    details: { provider, status },
    ...(retryAfterMs !== undefined && status === 429 ? { retryAfter: Math.ceil(retryAfterMs / 1000) } : {}),
  });
}

/** AI_PROVIDER_ERROR without an HTTP status: timeout, network, bad or truncated answer. */
export function providerError(provider: ProviderName, message: string, details: Record<string, unknown>) {
  return new AppError('AI_PROVIDER_ERROR', message, { details: { provider, ...details } });
}

const isRetryable = (status: number): boolean => status === 429 || status >= 500;

/** Milliseconds asked for by `retry-after-ms` or `Retry-After` (seconds or HTTP date), capped. */
export function parseRetryAfter(headers: Headers, now = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms')?.trim();
  const value = headers.get('retry-after')?.trim();
  let wait: number | undefined;
  if (ms && /^\d+(\.\d+)?$/.test(ms)) wait = Number(ms);
  else if (value && /^\d+(\.\d+)?$/.test(value)) wait = Number(value) * 1000;
  else if (value && !Number.isNaN(Date.parse(value))) wait = Date.parse(value) - now;
  return wait === undefined ? undefined : Math.min(Math.max(wait, 0), RETRY_AFTER_CAP_MS);
}

/** A resettable deadline: the whole exchange for a completion, the silence between chunks for a stream. */
class Deadline {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  readonly signal: AbortSignal;

  constructor(
    private readonly provider: ProviderName,
    private readonly ms: number,
    private readonly caller: AbortSignal | undefined,
  ) {
    this.signal = caller ? AbortSignal.any([this.controller.signal, caller]) : this.controller.signal;
    this.reset();
  }

  reset(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(
      () => this.controller.abort(new DOMException('The AI provider timed out', 'TimeoutError')),
      this.ms,
    );
  }

  clear(): void {
    clearTimeout(this.timer);
  }

  /** The error to throw for a failed fetch or body read: the caller's abort reason, a timeout, or `fallback`. */
  explain(err: unknown, fallback: () => AppError): unknown {
    this.clear();
    if (this.caller?.aborted) return this.caller.reason;
    if (this.controller.signal.aborted) {
      return providerError(this.provider, 'The AI provider did not answer in time', {
        reason: 'timeout',
        timeout_ms: this.ms,
      });
    }
    return err instanceof AppError ? err : fallback();
  }
}

function networkError(provider: ProviderName, err: unknown): AppError {
  const code = (err as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  return providerError(provider, 'The AI provider could not be reached', {
    reason: 'network',
    ...(typeof code === 'string' && /^[A-Z_]{1,40}$/.test(code) ? { code } : {}),
  });
}

/** A successful (2xx) provider answer whose body is read under the same deadline. */
export class ProviderResponse {
  constructor(
    readonly provider: ProviderName,
    private readonly response: Response,
    private readonly deadline: Deadline,
  ) {}

  /** The parsed JSON body; a body that is not JSON is AI_PROVIDER_ERROR. */
  async json(): Promise<unknown> {
    try {
      return await this.response.json();
    } catch (err) {
      throw this.deadline.explain(err, () =>
        err instanceof SyntaxError ? this.unexpected() : networkError(this.provider, err),
      );
    } finally {
      this.deadline.clear();
    }
  }

  /** The body's server-sent events in order; the deadline restarts with every chunk received. */
  async *events(): AsyncGenerator<SseEvent> {
    const body = this.response.body;
    if (!body) throw this.unexpected();
    const reader = body.getReader();
    const decoder = new TextDecoder();
    const parser = new SseParser();
    let done = false;
    try {
      while (!done) {
        const chunk = await reader.read().catch((err: unknown) => {
          throw this.deadline.explain(err, () => networkError(this.provider, err));
        });
        this.deadline.reset();
        done = chunk.done;
        const text = done ? decoder.decode() : decoder.decode(chunk.value, { stream: true });
        yield* parser.push(text);
      }
      yield* parser.end();
    } finally {
      this.deadline.clear();
      if (!done) await reader.cancel().catch(() => undefined);
    }
  }

  /** AI_PROVIDER_ERROR for an answer that does not have the expected shape. */
  unexpected(): AppError {
    return providerError(this.provider, 'The AI provider returned an unexpected response', {
      status: this.response.status,
    });
  }
}

/**
 * POSTs JSON and returns the 2xx answer. Retries once after a 429, a 5xx or a
 * network error (waiting Retry-After up to the cap, else DEFAULT_BACKOFF_MS);
 * a timeout or the caller's abort is not retried. Throws AI_PROVIDER_ERROR,
 * or the caller's abort reason when `signal` aborts.
 */
export async function postJson(options: PostOptions): Promise<ProviderResponse> {
  const { provider, signal } = options;
  const init = { method: 'POST', headers: options.headers, body: JSON.stringify(options.body) };
  for (let attempt = 0; ; attempt++) {
    const last = attempt >= 1;
    const deadline = new Deadline(provider, options.timeoutMs, signal);
    let wait = DEFAULT_BACKOFF_MS;
    try {
      const response = await options.fetch(options.url, { ...init, signal: deadline.signal });
      if (response.ok) return new ProviderResponse(provider, response, deadline);
      deadline.clear();
      await response.body?.cancel().catch(() => undefined);
      const retryAfter = parseRetryAfter(response.headers);
      if (last || !isRetryable(response.status)) throw statusError(provider, response.status, retryAfter);
      wait = retryAfter ?? DEFAULT_BACKOFF_MS;
    } catch (err) {
      const error = deadline.explain(err, () => networkError(provider, err));
      const isNetwork = error instanceof AppError && error.details?.reason === 'network';
      if (last || !isNetwork) throw error;
    }
    await options.sleep(wait, signal).catch((err: unknown) => {
      throw signal?.aborted ? signal.reason : err;
    });
  }
}

export interface SseEvent {
  /** The `event:` field, `message` when absent. */
  event: string;
  /** The `data:` lines joined with `\n`. */
  data: string;
  id?: string;
}

/**
 * Incremental parser of text/event-stream (WHATWG HTML, server-sent events):
 * chunks may split anywhere, lines end in LF, CRLF or CR, `:` lines are
 * comments, several `data:` lines join with LF. Unlike a browser, `end()`
 * also delivers a last event that lacks its closing blank line.
 */
export class SseParser {
  private buffer = '';
  private started = false;
  private data: string[] = [];
  private event = '';
  private id: string | undefined;

  push(chunk: string): SseEvent[] {
    let text = this.buffer + chunk;
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.startsWith('\uFEFF')) text = text.slice(1);
    }
    const events: SseEvent[] = [];
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i];
      if (ch !== '\n' && ch !== '\r') continue;
      // A CR at the very end may be the first half of a CRLF: decide when more arrives.
      if (ch === '\r' && i === text.length - 1) break;
      this.line(text.slice(start, i), events);
      if (ch === '\r' && text[i + 1] === '\n') i++;
      start = i + 1;
    }
    this.buffer = text.slice(start);
    return events;
  }

  end(): SseEvent[] {
    const events: SseEvent[] = [];
    const rest = this.buffer.replace(/\r$/, '');
    this.buffer = '';
    if (rest !== '') this.line(rest, events);
    this.line('', events);
    return events;
  }

  private line(line: string, events: SseEvent[]): void {
    if (line === '') {
      if (this.data.length > 0) {
        const event: SseEvent = { event: this.event || 'message', data: this.data.join('\n') };
        if (this.id !== undefined) event.id = this.id;
        events.push(event);
      }
      this.data = [];
      this.event = '';
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
  }
}
