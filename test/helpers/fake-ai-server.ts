/**
 * A stand-in AI provider on loopback that speaks OpenAI Chat Completions
 * (`/v1/chat/completions`, `/chat/completions`) and Anthropic Messages
 * (`/v1/messages`), streaming included, with each format's own SSE framing.
 * It records every request and can be told to fail, stall or break a stream.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, or the raw text when it is not JSON. */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface FakeAiServer {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  requests: RecordedRequest[];
  /** The next `times` requests answer `status` with an error body holding FAKE_ERROR_SECRET. */
  failNext(status: number, times?: number, options?: { retryAfter?: string }): void;
  /** The next `times` requests never finish; `midStream` sends headers and two deltas first. */
  stallNext(times?: number, options?: { midStream?: boolean }): void;
  /** The next streamed answer sends two deltas, then the format's error report. */
  streamErrorNext(): void;
  close(): Promise<void>;
}

/** Text in every error body the fake sends, so tests can check it never leaks. */
export const FAKE_ERROR_SECRET = 'raw-upstream-body: db password hunter2 at 10.0.0.7';

type Format = 'openai' | 'anthropic';
type Behaviour =
  | { kind: 'fail'; status: number; retryAfter?: string | undefined }
  | { kind: 'stall'; midStream: boolean }
  | { kind: 'stream-error' };

const ROUTES: Record<string, Format> = {
  '/v1/chat/completions': 'openai',
  '/chat/completions': 'openai',
  '/v1/messages': 'anthropic',
};

/**
 * The deterministic answer: the `Task: <action>` keyword of the system prompt
 * (or `chat`) and the first 40 characters of the last user message.
 */
export function fakeAnswer(system: string, lastUserMessage: string): string {
  const task = /\bTask: ([a-z_]+)/.exec(system)?.[1] ?? 'chat';
  return `Fake ${task} answer for: ${lastUserMessage.slice(0, 40)}`;
}

/** Splits text into small deltas, the way providers stream it. */
export const fakeDeltas = (text: string): string[] => text.match(/[\s\S]{1,7}/g) ?? [];

interface RequestBody {
  model?: unknown;
  stream?: unknown;
  system?: unknown;
  messages?: Array<{ role?: unknown; content?: unknown }>;
}

function answerFor(format: Format, body: RequestBody | undefined): string {
  const messages = Array.isArray(body?.messages) ? body.messages : [];
  const system =
    format === 'openai'
      ? String(messages.find((m) => m.role === 'system')?.content ?? '')
      : typeof body?.system === 'string'
        ? body.system
        : '';
  const lastUser = messages.filter((m) => m.role === 'user').at(-1)?.content;
  return fakeAnswer(system, typeof lastUser === 'string' ? lastUser : '');
}

function errorBody(format: Format, status: number): string {
  const type = status === 429 ? 'rate_limit_error' : 'api_error';
  return JSON.stringify(
    format === 'openai'
      ? { error: { message: FAKE_ERROR_SECRET, type, code: null } }
      : { type: 'error', error: { type, message: FAKE_ERROR_SECRET } },
  );
}

function completion(format: Format, model: string, text: string): unknown {
  if (format === 'openai') {
    return {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: 1_700_000_000,
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
    };
  }
  return {
    id: 'msg_fake',
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 10 },
  };
}

/** The SSE frames of a streamed answer in the format's own event shapes. */
function frames(format: Format, model: string, deltas: string[]): { head: string[]; tail: string[] } {
  if (format === 'openai') {
    const chunk = (delta: object, finish: string | null) =>
      `data: ${JSON.stringify({
        id: 'chatcmpl-fake',
        object: 'chat.completion.chunk',
        created: 1_700_000_000,
        model,
        choices: [{ index: 0, delta, finish_reason: finish }],
      })}\n\n`;
    return {
      head: [
        chunk({ role: 'assistant', content: '' }, null),
        ...deltas.map((d) => chunk({ content: d }, null)),
      ],
      tail: [chunk({}, 'stop'), 'data: [DONE]\n\n'],
    };
  }
  const event = (name: string, data: object) =>
    `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;
  return {
    head: [
      event('message_start', {
        message: {
          id: 'msg_fake',
          type: 'message',
          role: 'assistant',
          content: [],
          model,
          stop_reason: null,
        },
      }),
      event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
      ': keep-alive comment\n\n',
      event('ping', {}),
      ...deltas.map((text) =>
        event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }),
      ),
    ],
    tail: [
      event('content_block_stop', { index: 0 }),
      event('message_delta', {
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { output_tokens: 9 },
      }),
      event('message_stop', {}),
    ],
  };
}

/** Writes each frame in two halves, flushed apart, so clients meet chunks split mid-line. */
async function writeFrames(res: ServerResponse, list: string[]): Promise<void> {
  for (const frame of list) {
    const cut = Math.ceil(frame.length / 2);
    res.write(frame.slice(0, cut));
    await delay(2);
    res.write(frame.slice(cut));
    await delay(2);
  }
}

/** Starts the fake on 127.0.0.1 with a free port. */
export async function startFakeAiServer(): Promise<FakeAiServer> {
  const requests: RecordedRequest[] = [];
  const queue: Behaviour[] = [];

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      body = raw;
    }
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    requests.push({ method: req.method ?? '', path, headers: req.headers, body });

    const format = ROUTES[path];
    if (req.method !== 'POST' || !format) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      return;
    }
    const behaviour = queue.shift();
    if (behaviour?.kind === 'fail') {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (behaviour.retryAfter !== undefined) headers['retry-after'] = behaviour.retryAfter;
      res.writeHead(behaviour.status, headers).end(errorBody(format, behaviour.status));
      return;
    }
    if (behaviour?.kind === 'stall' && !behaviour.midStream) return;

    const json = typeof body === 'object' && body !== null ? (body as RequestBody) : undefined;
    const model = String(json?.model ?? 'unknown');
    const text = answerFor(format, json);
    if (json?.stream !== true) {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(completion(format, model, text)));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
    const { head, tail } = frames(format, model, fakeDeltas(text));
    if (behaviour) {
      await writeFrames(res, head.slice(0, format === 'openai' ? 3 : 6));
      if (behaviour.kind === 'stall') return;
      const error =
        format === 'openai'
          ? `data: ${JSON.stringify({ error: { message: FAKE_ERROR_SECRET, type: 'server_error' } })}\n\n`
          : `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: FAKE_ERROR_SECRET } })}\n\n`;
      await writeFrames(res, [error]);
      res.end();
      return;
    }
    await writeFrames(res, [...head, ...tail]);
    res.end();
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext(status, times = 1, options = {}) {
      for (let i = 0; i < times; i++) queue.push({ kind: 'fail', status, retryAfter: options.retryAfter });
    },
    stallNext(times = 1, options = {}) {
      for (let i = 0; i < times; i++) queue.push({ kind: 'stall', midStream: options.midStream ?? false });
    },
    streamErrorNext() {
      queue.push({ kind: 'stream-error' });
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
