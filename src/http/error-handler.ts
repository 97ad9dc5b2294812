import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import http from 'node:http';
import type { Socket } from 'node:net';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import { contentSecurityPolicy } from './security.js';
import { olderErrorShape } from './compat/error-shapes.js';

/** The API's error body. Built in one place so every refusal looks the same. */
export function errorBody(request: Pick<FastifyRequest, 'id'>, error: AppError): Record<string, unknown> {
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
  // A client of an older layout may ask for its error shape (docs/compatibility.md).
  const older = olderErrorShape(request, error);
  if (older) return reply.code(error.status).type(older.contentType).send(older.body);
  return reply.code(error.status).type('application/json; charset=utf-8').send(errorBody(request, error));
}

/** Headers every API response carries, the ones the request hooks set when a request gets that far. */
export function apiHeaders(requestId: string): Record<string, string> {
  return {
    'X-Request-ID': requestId,
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': contentSecurityPolicy('api'),
  };
}

const tooLarge = (): AppError =>
  new AppError('VALIDATION_ERROR', 'Request body exceeds the 10 MB limit', { status: 413 });

/** Turns Fastify's own errors (parsing, limits, URLs) into AppErrors; anything else is a fault. */
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
    case 'FST_ERR_BAD_URL':
      return new AppError('VALIDATION_ERROR', 'The URL holds a percent-escape that is not valid UTF-8', {
        details: { field: 'url' },
      });
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new AppError('VALIDATION_ERROR', 'A segment of the URL is too long', {
        status: 414,
        details: { field: 'url' },
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

/** Sends an error in the API's error body; a fault is logged and hidden behind INTERNAL_ERROR. */
function answerError(
  error: FastifyError | Error,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const appError = toAppError(error);
  if (!appError) {
    request.log.error({ err: error, request_id: request.id }, 'unhandled error');
    return sendError(request, reply, new AppError('INTERNAL_ERROR', 'An internal error occurred'));
  }
  return sendError(request, reply, appError);
}

/**
 * Fastify's `frameworkErrors`: errors raised while routing (a URL that does not decode, a
 * path parameter over the length limit), before any hook has run, so the headers the hooks
 * would have set are set here.
 */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  reply.headers(apiHeaders(request.id));
  return answerError(error, request, reply);
}

/** What a request Node's HTTP parser refused means for the client. */
function clientFault(error: NodeJS.ErrnoException): AppError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new AppError('VALIDATION_ERROR', 'The request headers are too large', {
        status: 431,
        details: { field: 'headers' },
      });
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new AppError('VALIDATION_ERROR', 'The request did not arrive in time', { status: 408 });
    default:
      return new AppError('VALIDATION_ERROR', 'The request is not well-formed HTTP');
  }
}

/**
 * The HTTP server's `clientError` handler: a request Node refused before Fastify saw it
 * (oversized headers, malformed request line) still gets the API's error body and a
 * request id, written straight to the socket, which is then closed.
 */
export function clientErrorHandler(newRequestId: () => string, logger: Logger) {
  return (error: NodeJS.ErrnoException, socket: Socket): void => {
    // A reset connection has nobody left to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const id = newRequestId();
    const appError = clientFault(error);
    logger.info({ request_id: id, status: appError.status, code: error.code }, 'refused a malformed request');
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const body = JSON.stringify(errorBody({ id }, appError));
    const headers = {
      ...apiHeaders(id),
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(body)),
      Connection: 'close',
    };
    const head = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.end(
      `HTTP/1.1 ${appError.status} ${http.STATUS_CODES[appError.status] ?? ''}\r\n${head}\r\n${body}`,
    );
  };
}

/**
 * Installs the single mapping from errors to HTTP. `fallback`
 * may answer a request no route matched (the web app's deep links) before it is a 404.
 */
export function installErrorHandling(
  app: FastifyInstance,
  fallback?: (request: FastifyRequest, reply: FastifyReply) => FastifyReply | null,
): void {
  app.setErrorHandler((error: FastifyError, request, reply) => answerError(error, request, reply));

  app.setNotFoundHandler(
    (request, reply) =>
      fallback?.(request, reply) ??
      sendError(
        request,
        reply,
        new AppError('NOT_FOUND', `No route for ${request.method} ${request.url.split('?')[0]}`),
      ),
  );
}
