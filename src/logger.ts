import pino, { type Logger } from 'pino';

/**
 * The process logger. Credentials never reach the log: headers that carry
 * them, and any field named like a secret, are redacted.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'req.headers["x-gitlab-token"]',
          'res.headers["set-cookie"]',
          '*.password',
          '*.new_password',
          '*.token',
          '*.refresh_token',
          '*.access_token',
          '*.api_key',
          '*.secret',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}

export type { Logger };
