import { errorCodes, type FastifyInstance } from 'fastify';
import { evalThread } from '../lib/eval-thread.js';

/**
 * JSON request bodies above this many bytes are parsed on a thread of their own.
 *
 * A body near the 10 MB limit (a large page's PUT) costs three passes over its megabytes
 * on the event loop: Fastify joins the chunks, and the parse decodes the bytes and builds
 * the strings. On a small machine that was more than 100 ms in one turn. Off the loop, the
 * loop joins the chunks (one pass), hands the bytes over without a copy, and later takes
 * the parsed value back (one pass, in another turn). Smaller bodies are parsed in place
 * by Fastify's own parser, which costs less than the round trip.
 */
const OFF_THREAD_BYTES = 1024 * 1024;

/** How long the thread waits for another body before it stops. */
const IDLE_MS = 20_000;

// Fastify's own rules for a JSON body: an own `__proto__` key anywhere, or a `constructor`
// whose value has a `prototype`, is refused (secure-json-parse with both actions 'error').
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
function poisoned(value) {
  const stack = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Object.prototype.hasOwnProperty.call(node, '__proto__')) return true;
    const ctor = Object.prototype.hasOwnProperty.call(node, 'constructor') ? node.constructor : undefined;
    if (ctor !== null && typeof ctor === 'object' && Object.prototype.hasOwnProperty.call(ctor, 'prototype')) return true;
    for (const key in node) stack.push(node[key]);
  }
  return false;
}
parentPort.on('message', ({ id, bytes }) => {
  try {
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    const value = JSON.parse(text);
    const suspect = text.includes('__proto__') || text.includes('constructor');
    parentPort.postMessage(suspect && poisoned(value) ? { id, invalid: true } : { id, value });
  } catch {
    parentPort.postMessage({ id, invalid: true });
  }
});
`;

interface Parsed {
  id: number;
  value?: unknown;
  invalid?: true;
}

/** Replaces Fastify's JSON parser with one that parses large bodies off the event loop. */
export function installJsonBodies(app: FastifyInstance): void {
  const inPlace = app.getDefaultJsonParser('error', 'error');
  const thread = evalThread<Parsed>({
    source: WORKER_SOURCE,
    name: 'the JSON parsing thread',
    idleMs: IDLE_MS,
  });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    // Fastify's parser reads a Buffer as well as a string (its type says string only).
    if (bytes.length <= OFF_THREAD_BYTES) return inPlace(request, bytes as unknown as string, done);
    // Fastify's joined body owns its memory whole: handed over without a copy.
    const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
    const sent = owned ? bytes : Buffer.from(bytes);
    thread.run({ bytes: sent }, [sent.buffer as ArrayBuffer]).then(
      (parsed) =>
        parsed.invalid
          ? done(new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY(), undefined)
          : done(null, parsed.value),
      (error: Error) => done(error, undefined),
    );
  });
}
