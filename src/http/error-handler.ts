import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';

/** SPEC.md 7.1's body. Built in one place so every refusal looks the same. */
export function errorBody(request: FastifyRequest, error: AppError): Record<string, unknown> {
  return {
    ...(error.extra ?? {}),
    error: error.code,
    message: error.message,
    ...(error.details ? { details: error.details } : {}),
    request_id: request.id,
  };
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  if (error.retryAfter !== undefined)
    reply.header('Retry-After', String(Math.max(1, Math.ceil(error.retryAfter))));
  return reply.code(error.status).type('application/json; charset=utf-8').send(errorBody(request, error));
}

const tooLarge = (): AppError =>
  new AppError('VALIDATION_ERROR', 'Request body exceeds the 10 MB limit', { status: 413 });

/** Turns Fastify's own errors (parsing, limits) into AppErrors; anything else is a fault. */
function toAppError(error: FastifyError | Error): AppError | null {
  if (error instanceof AppError) return error;
  const fe = error as FastifyError;
  switch (fe.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge();
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('VALIDATION_ERROR', 'Unsupported content type', {
        details: { field: 'content-type' },
      });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('VALIDATION_ERROR', 'Request body is not valid JSON', {
        details: { field: 'body' },
      });
  }
  if (fe.validation) {
    return new AppError('VALIDATION_ERROR', fe.message, {
      details: { field: fe.validationContext ?? 'body' },
    });
  }
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    if (fe.statusCode === 413) return tooLarge();
    if (fe.statusCode === 404) return new AppError('NOT_FOUND', 'Not found');
    return new AppError('VALIDATION_ERROR', fe.message);
  }
  return null;
}

/** Installs the single mapping from errors to HTTP (DESIGN.md convention 4). */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const appError = toAppError(error);
    if (!appError) {
      request.log.error({ err: error, request_id: request.id }, 'unhandled error');
      return sendError(request, reply, new AppError('INTERNAL_ERROR', 'An internal error occurred'));
    }
    return sendError(request, reply, appError);
  });

  app.setNotFoundHandler((request, reply) =>
    sendError(
      request,
      reply,
      new AppError('NOT_FOUND', `No route for ${request.method} ${request.url.split('?')[0]}`),
    ),
  );
}
