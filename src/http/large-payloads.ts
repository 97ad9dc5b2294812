import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { nextLoopTurn } from '../lib/event-loop-turn.js';
import { textSlices } from '../lib/text-slices.js';

/**
 * A response body above this many characters or bytes is written in slices, one per turn
 * of the event loop.
 *
 * Written whole, a body of megabytes (a 9 MB page's JSON, llms-full.txt) is encoded into
 * one fresh buffer and handed to the socket in one call: the encoding, the page faults of
 * the new memory and the kernel's copy all ran in one turn, more than 100 ms of it on a
 * small machine. A string's length in bytes is not counted first (another pass over the
 * megabytes): it goes out chunked.
 */
const SLICE = 256 * 1024;
export const LARGE_PAYLOAD = 1024 * 1024;

/**
 * A JSON answer holding a string of megabytes (a page's body) at its top level. Produced by
 * the reply serialiser in place of the JSON text: `JSON.stringify` of the whole object would
 * escape and copy the megabytes in one turn of the event loop (70 ms for 9 MB on a small
 * machine); `slices` writes the same text, the large strings a slice per turn.
 */
class LargeJson {
  constructor(private readonly entries: Array<[string, unknown]>) {}

  /** The JSON text `JSON.stringify` would give for the object, as UTF-8 slices. */
  async *slices(): AsyncGenerator<Buffer> {
    let pending = '{';
    let first = true;
    for (const [key, value] of this.entries) {
      const large = isLargeString(value);
      const json = large ? '' : (JSON.stringify(value) as string | undefined);
      if (json === undefined) continue; // left out, as JSON.stringify leaves out undefined and functions
      pending += `${first ? '' : ','}${JSON.stringify(key)}:`;
      first = false;
      if (!large) {
        pending += json;
        continue;
      }
      yield Buffer.from(`${pending}"`, 'utf8');
      // Slices never split a surrogate pair, so each escapes as the whole string would.
      for await (const slice of turnBySlice(value)) {
        yield Buffer.from(JSON.stringify(slice).slice(1, -1), 'utf8');
      }
      pending = '"';
    }
    yield Buffer.from(`${pending}}`, 'utf8');
  }
}

const isLargeString = (value: unknown): value is string =>
  typeof value === 'string' && value.length > LARGE_PAYLOAD;

/**
 * The reply serialiser of every route: `JSON.stringify`, except for a plain object with a
 * string of megabytes among its own fields, which becomes a `LargeJson` for `onSend` to stream.
 */
export function serializeReply(data: unknown): string | LargeJson {
  if (data !== null && typeof data === 'object' && !Array.isArray(data)) {
    const proto: unknown = Object.getPrototypeOf(data);
    const entries = Object.entries(data);
    if ((proto === Object.prototype || proto === null) && entries.some(([, v]) => isLargeString(v))) {
      return new LargeJson(entries);
    }
  }
  return JSON.stringify(data);
}

/** Sends large JSON, string and Buffer bodies as a stream of slices. */
export function installLargePayloadSlicing(app: FastifyInstance): void {
  // Called before any route is added: each route takes the serialiser in force when it is added.
  app.setReplySerializer(serializeReply as (payload: unknown) => string);
  app.addHook('onSend', async (_request, reply, payload) => {
    if (payload instanceof LargeJson) {
      reply.removeHeader('content-length');
      return Readable.from(payload.slices(), { objectMode: false });
    }
    if (typeof payload === 'string' && payload.length > LARGE_PAYLOAD) {
      reply.removeHeader('content-length');
      return Readable.from(stringSlices(payload), { objectMode: false });
    }
    if (Buffer.isBuffer(payload) && payload.length > LARGE_PAYLOAD) {
      reply.header('content-length', payload.length);
      return Readable.from(bufferSlices(payload), { objectMode: false });
    }
    return payload;
  });
}

async function* stringSlices(text: string): AsyncGenerator<Buffer> {
  for await (const slice of turnBySlice(text)) yield Buffer.from(slice, 'utf8');
}

/**
 * `text` in slices (see textSlices), each cut in a turn of the event loop of its own, the
 * first too: slicing a text built by appending copies it into one string first, megabytes,
 * which must not join the turn that built it.
 */
async function* turnBySlice(text: string): AsyncGenerator<string> {
  const slices = textSlices(text, SLICE);
  for (;;) {
    await nextLoopTurn();
    const next = slices.next();
    if (next.done === true) return;
    yield next.value;
  }
}

async function* bufferSlices(bytes: Buffer): AsyncGenerator<Buffer> {
  for (let at = 0; at < bytes.length; at += SLICE) {
    yield bytes.subarray(at, at + SLICE);
    await nextLoopTurn();
  }
}
