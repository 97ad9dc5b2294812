/**
 * A start that cannot go on for a reason the operator can fix: a database or Redis that
 * does not answer, a port that is taken, a DATA_DIR that cannot be written. Its message is
 * one sentence saying what is wrong and what to do, and the CLI prints it alone: a stack
 * trace would only point at Folio's code, which is not where the problem is.
 */
export class StartupError extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.name = 'StartupError';
  }
}

/** Network errors of a service that cannot be reached (Node's codes, also inside an AggregateError). */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** SQLite's own codes for a database file that cannot be used (better-sqlite3's `code`). */
const SQLITE_FILE_PROBLEMS = /^SQLITE_(?:CANTOPEN|NOTADB|CORRUPT|READONLY|PERM|IOERR)/;

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  const inner = (error as { errors?: unknown[] } | null)?.errors?.[0];
  return inner === undefined ? '' : codeOf(inner);
}

/** `host:port/path` of a service URL: never its user, password or query, which may hold secrets. */
export function serviceAddress(url: string): string {
  try {
    const u = new URL(url);
    return `${u.host}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    return 'an unparsable URL';
  }
}

const reason = (error: unknown) => {
  const code = codeOf(error);
  const message = ((error as Error)?.message || code || String(error)).replace(/\.$/, '');
  return code && !message.includes(code) ? `${message} (${code})` : message;
};

/**
 * Turns a failure to open or migrate the database into a StartupError naming what to
 * check; any other failure (a bug, a failed migration) is returned as it was, stack and all.
 */
export function databaseStartError(
  error: unknown,
  target: { databaseUrl: string | undefined; sqlitePath: string },
): unknown {
  const code = codeOf(error);
  if (target.databaseUrl) {
    // SQLSTATE classes 08 (connection) and 28 (authorization); 3D000: no such database.
    const pgProblem =
      UNREACHABLE.has(code) ||
      /^(?:08|28)/.test(code) ||
      code === '3D000' ||
      /timeout|terminated/i.test((error as Error)?.message ?? '');
    if (!pgProblem) return error;
    return new StartupError(
      `cannot use the PostgreSQL database at ${serviceAddress(target.databaseUrl)}: ${reason(error)}. ` +
        'Check DATABASE_URL and that PostgreSQL is running and reachable from this machine.',
      { cause: error },
    );
  }
  if (!SQLITE_FILE_PROBLEMS.test(code)) return error;
  return new StartupError(
    `cannot use the SQLite database ${target.sqlitePath}: ${reason(error)}. ` +
      'Check that DATA_DIR is a directory this user can write, or restore the file from a backup (DATA_DIR/backups).',
    { cause: error },
  );
}

/**
 * Turns a Redis that cannot be reached into a StartupError naming REDIS_URL; anything else
 * as it was. `error` is best the connection's own error event (ioredis rejects `connect()`
 * with a bare "Connection is closed").
 */
export function redisStartError(error: unknown, redisUrl: string): unknown {
  const code = codeOf(error);
  const message = (error as Error)?.message ?? '';
  if (!UNREACHABLE.has(code) && !/connection is closed|NOAUTH|WRONGPASS/i.test(message)) return error;
  return new StartupError(
    `cannot reach Redis at ${serviceAddress(redisUrl)}: ${reason(error)}. ` +
      'Check REDIS_URL and that Redis is running, or unset REDIS_URL to run a single instance without it.',
    { cause: error },
  );
}

/** File-system errors that a wrong DATA_DIR (or key path) causes. */
const FILE_PROBLEMS = new Set([
  'EACCES',
  'EPERM',
  'ENOTDIR',
  'EROFS',
  'ENOSPC',
  'EISDIR',
  'ENOENT',
  'EEXIST',
]);

/**
 * A file or folder Folio needs at start that it cannot read or write, as a StartupError
 * naming the path and DATA_DIR; anything else as it was.
 */
export function fileStartError(error: unknown, dataDir: string): unknown {
  const { code, path, syscall } = (error ?? {}) as NodeJS.ErrnoException;
  if (!code || !FILE_PROBLEMS.has(code) || !path) return error;
  const what = (error as Error).message.replace(/^[A-Z]+: /, '').replace(/, \w+ '.*'$/, '');
  return new StartupError(
    `cannot ${syscall ?? 'use'} ${path}: ${what} (${code}). ` +
      `DATA_DIR (${dataDir}) must be a directory this user can read and write.`,
    { cause: error },
  );
}
