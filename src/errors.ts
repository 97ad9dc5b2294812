/**
 * The one error type services throw. It carries no transport: each adapter
 * (HTTP, MCP, CLI) maps it once to its own form. Codes are the API's error codes.
 */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  PLAN_LIMIT_REACHED: 403,
  PLAN_LIMIT: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  AI_PROVIDER_ERROR: 502,
  AI_DISABLED: 503,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export type ErrorDetails = Record<string, unknown>;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails | undefined;
  /** Fields placed at the top level of the error body as well as in details. */
  readonly extra: ErrorDetails | undefined;
  /** Seconds a client should wait before retrying (429, locked accounts). */
  readonly retryAfter: number | undefined;
  /** An HTTP status other than the code's own (413 is a VALIDATION_ERROR ). */
  private readonly statusOverride: number | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: {
      details?: ErrorDetails;
      extra?: ErrorDetails;
      retryAfter?: number;
      status?: number;
      cause?: unknown;
    } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.details = options.details;
    this.extra = options.extra;
    this.retryAfter = options.retryAfter;
    this.statusOverride = options.status;
  }

  get status(): number {
    return this.statusOverride ?? ERROR_STATUS[this.code];
  }
}

/** 404 in the API's words; used both for "absent" and for "you may not read it". */
export const notFound = (what = 'Resource'): AppError => new AppError('NOT_FOUND', `${what} not found`);

export const forbidden = (message = 'You do not have permission to do that'): AppError =>
  new AppError('FORBIDDEN', message);

export const unauthorized = (message = 'Authentication required'): AppError =>
  new AppError('UNAUTHORIZED', message);

/** A validation failure naming the offending field in `details.field`. */
export const invalid = (field: string, message: string): AppError =>
  new AppError('VALIDATION_ERROR', message, { details: { field } });

export const conflict = (message: string, extra?: ErrorDetails): AppError =>
  new AppError('CONFLICT', message, extra ? { details: extra, extra } : {});
