import { Readable } from 'node:stream';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import type { AiService, ChatStreamEvent } from '../../services/ai/index.js';
import { requireActor } from '../auth-context.js';
import { errorBody } from '../error-handler.js';
import { aiStatus, chatAnswer, writingAssistAnswer } from '../../contract/ai.js';
import { z } from 'zod';

const AI = { rateLimit: 'ai' } as const;

/** One Server-Sent Event; JSON data never holds a raw newline, so one `data:` line suffices. */
const frame = (event: string, data: unknown): string => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

const wantsEventStream = (request: FastifyRequest): boolean =>
  /\btext\/event-stream\b/i.test(String(request.headers.accept ?? ''));

/** An abort signal that fires when the client goes away before the response is finished. */
function abortOnClose(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    // An AppError reason: the provider call rethrows it and the error mapping answers it
    // quietly (to nobody) instead of logging a fault. 499 as nginx records it.
    if (!reply.raw.writableFinished) {
      controller.abort(new AppError('VALIDATION_ERROR', 'The client closed the connection', { status: 499 }));
    }
  });
  return controller.signal;
}

/**
 * The SSE body: `token` per delta, `sources`, then `done`. A failure after
 * the 200 was sent can only be reported in the stream: `error` with the API's
 * error body, and the stream ends there.
 */
async function* eventStream(
  request: FastifyRequest,
  first: IteratorResult<ChatStreamEvent>,
  rest: AsyncGenerator<ChatStreamEvent>,
  signal: AbortSignal,
): AsyncGenerator<string> {
  const toFrame = (event: ChatStreamEvent): string =>
    event.type === 'token'
      ? frame('token', { text: event.text })
      : frame('sources', { sources: event.sources });
  try {
    if (!first.done) yield toFrame(first.value);
    for await (const event of rest) yield toFrame(event);
    yield frame('done', {});
  } catch (err) {
    if (signal.aborted) return;
    const error =
      err instanceof AppError ? err : new AppError('INTERNAL_ERROR', 'An internal error occurred');
    if (!(err instanceof AppError)) request.log.error({ err, request_id: request.id }, 'chat stream failed');
    yield frame('error', errorBody(request, error));
  }
}

/** The chat's answer: whole as JSON, or streamed as server-sent events when the client asks. */
const chatAnswers = {
  description: 'The answer and its sources; with `Accept: text/event-stream`, the same streamed',
  content: {
    'application/json': { schema: chatAnswer },
    'text/event-stream': {
      schema: z
        .string()
        .describe(
          'Events `token` ({ text }) per delta, then `sources`, then `done`; or `error` with the error body',
        ),
    },
  },
};

/** The AI endpoints, and the status alias `/api/ai/status`. */
export function aiRoutes(services: { ai: AiService }) {
  const { ai } = services;
  return (scope: FastifyInstance) => {
    // Typed by the response schemas: a service answer that drifts from its record does not compile.
    const app = scope.withTypeProvider<ZodTypeProvider>();
    // Anonymous on purpose: the API asks no token and the answer holds no secret.
    const status = { config: { auth: 'none' }, schema: { response: { 200: aiStatus } } } as const;
    app.get('/api/v1/ai/status', status, async () => ai.status());
    app.get('/api/ai/status', status, async () => ai.status());

    const assist = { config: AI, schema: { response: { 200: writingAssistAnswer } } };
    app.post('/api/v1/ai/writing-assist', assist, async (request, reply) =>
      ai.writingAssist(requireActor(request), request.body, abortOnClose(reply)),
    );

    app.post(
      '/api/v1/ai/chat',
      { config: AI, schema: { response: { 200: chatAnswers } } },
      async (request, reply) => {
        const actor = requireActor(request);
        const signal = abortOnClose(reply);
        if (!wantsEventStream(request)) return ai.chat(actor, request.body, signal);
        const events = ai.chatStream(actor, request.body, signal);
        // Checks and the provider's first delta happen here, so a refusal or an early provider
        // failure is still an ordinary JSON error with its own status.
        const first = await events.next();
        // The stream's text is what the schema's text/event-stream names; sent as a Node stream.
        const untyped: FastifyReply = reply;
        return untyped
          .code(200)
          .header('content-type', 'text/event-stream; charset=utf-8')
          .header('cache-control', 'no-cache, no-transform')
          .header('x-accel-buffering', 'no')
          .send(Readable.from(eventStream(request, first, events, signal)));
      },
    );
  };
}
