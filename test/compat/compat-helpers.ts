import { expect } from 'vitest';
import type { DatabaseTarget } from '../helpers/databases.js';
import { startServer, type StartOptions, type TestResponse, type TestServer } from '../helpers/server.js';

/** A server on the target database; `cleanup` closes it and drops its PostgreSQL schema. */
export async function startOn(
  target: DatabaseTarget,
  options: StartOptions = {},
): Promise<{ server: TestServer; cleanup(): Promise<void> }> {
  const db = await target.prepare();
  const server = await startServer({
    ...options,
    env: { ...db.env, ...options.env },
    ...(db.pgSchema ? { pgSchema: db.pgSchema } : {}),
  });
  return {
    server,
    cleanup: async () => {
      await server.close();
      await db.cleanup();
    },
  };
}

/** A compatibility route's answer names itself deprecated and points to its current equivalent. */
export function expectDeprecated(res: TestResponse, successor: string): void {
  expect(res.headers.get('deprecation')).toBe('true');
  expect(res.headers.get('link')).toBe(`<${successor}>; rel="successor-version"`);
}

/** A current route's answer carries no deprecation. */
export function expectCurrent(res: TestResponse): void {
  expect(res.headers.get('deprecation')).toBeNull();
}
