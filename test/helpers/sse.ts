import { SseParser } from '../../src/ai/http.js';

export interface ReceivedEvent {
  event: string;
  /** The `data:` field parsed as JSON. */
  data: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON
}

export interface EventStreamResponse {
  status: number;
  headers: Headers;
  /** Every event in arrival order (empty when the answer was not a stream). */
  events: ReceivedEvent[];
  /** The whole body as received, for leak checks. */
  text: string;
}

export interface EventStreamOptions {
  body: unknown;
  token?: string;
  /** Stop reading (and close the connection) once this returns true for the events so far. */
  until?: (events: ReceivedEvent[]) => boolean;
}

/**
 * POSTs with `Accept: text/event-stream` and reads the answer incrementally
 * over HTTP, parsing the events as they arrive; `until` lets a test stop on a
 * stream that never ends, which proves the events were not buffered.
 */
export async function postEventStream(
  url: string,
  options: EventStreamOptions,
): Promise<EventStreamResponse> {
  const controller = new AbortController();
  const headers: Record<string, string> = {
    accept: 'text/event-stream',
    'content-type': 'application/json',
  };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const res = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify(options.body),
    signal: controller.signal,
  });
  const events: ReceivedEvent[] = [];
  let text = '';
  if (!res.body) return { status: res.status, headers: res.headers, events, text };
  const parser = new SseParser();
  const decoder = new TextDecoder();
  const reader = res.body.getReader();
  const streaming = (res.headers.get('content-type') ?? '').startsWith('text/event-stream');
  for (;;) {
    const { done, value } = await reader.read();
    const chunk = done ? decoder.decode() : decoder.decode(value, { stream: true });
    text += chunk;
    if (streaming) {
      for (const e of [...parser.push(chunk), ...(done ? parser.end() : [])]) {
        events.push({ event: e.event, data: JSON.parse(e.data) });
      }
    }
    if (done) break;
    if (options.until?.(events)) {
      controller.abort();
      break;
    }
  }
  return { status: res.status, headers: res.headers, events, text };
}
