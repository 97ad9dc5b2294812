import { ConfigError } from '../config.js';
import { sourceMappedStack } from '../lib/source-mapped-stack.js';
import { StartupError } from '../start-up-error.js';

/**
 * What the `folio` command prints when it stops on an error nothing else handled. A
 * StartupError or ConfigError is one sentence an operator can act on, printed alone. Any
 * other error is a bug or a case Folio does not know: one line saying so, then its stack
 * with the bundle's locations mapped back to the src/ files (never the bundle's minified
 * source line, which Node would print by itself and which runs to kilobytes).
 */
export function describeFatal(error: unknown): string {
  if (error instanceof StartupError || error instanceof ConfigError) return `folio: ${error.message}\n`;
  const message = error instanceof Error ? error.message : String(error);
  const stack = error instanceof Error && error.stack ? sourceMappedStack(error.stack) : '';
  const cause =
    error instanceof Error && error.cause instanceof Error && error.cause.stack
      ? `Caused by: ${sourceMappedStack(error.cause.stack)}\n`
      : '';
  return (
    `folio: stopped by an unexpected error: ${message}\n` +
    'If the cause is not clear from this message, report it with the stack trace below.\n\n' +
    (stack ? `${stack}\n` : '') +
    cause
  );
}

/**
 * Prints `error` as describeFatal says and ends the process with exit code 1. Writes to
 * stderr are synchronous for files, pipes and terminals on Linux, so nothing is lost.
 */
export function exitOnFatal(error: unknown): never {
  process.stderr.write(describeFatal(error));
  process.exit(1);
}
