import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';

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

/** Sends large string and Buffer bodies as a stream of slices. */
export function installLargePayloadSlicing(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
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
  let at = 0;
  while (at < text.length) {
    // Each slice in a turn of its own, the first too: slicing a text built by appending
    // copies it into one string first, megabytes, which must not join the turn that built it.
    await nextTurn();
    let end = Math.min(at + SLICE, text.length);
    // A slice never ends between the two halves of a surrogate pair.
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end += 1;
    yield Buffer.from(text.slice(at, end), 'utf8');
    at = end;
  }
}

async function* bufferSlices(bytes: Buffer): AsyncGenerator<Buffer> {
  for (let at = 0; at < bytes.length; at += SLICE) {
    yield bytes.subarray(at, at + SLICE);
    await nextTurn();
  }
}
