import { describe } from 'vitest';
import { createPgSchema } from './pg-schema.js';

export { createPgSchema };

/** PostgreSQL for the suites that run on both databases, when CI (or a developer) provides one. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;

let announced = false;
/** Says once per test file, plainly, that the PostgreSQL variants are skipped. */
export function announcePostgresSkip(): void {
  if (TEST_DATABASE_URL || announced) return;
  announced = true;
  console.warn('[folio tests] TEST_DATABASE_URL is not set: PostgreSQL variants are skipped (SQLite ran).');
}

export interface DatabaseTarget {
  name: 'sqlite' | 'postgres';
  /** Environment for a Folio instance on this database, plus cleanup. */
  prepare(): Promise<{ env: Record<string, string>; pgSchema?: string; cleanup(): Promise<void> }>;
}

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set. */
export function databaseTargets(): DatabaseTarget[] {
  announcePostgresSkip();
  const targets: DatabaseTarget[] = [
    { name: 'sqlite', prepare: async () => ({ env: {}, cleanup: async () => {} }) },
  ];
  const url = TEST_DATABASE_URL;
  if (url) {
    targets.push({
      name: 'postgres',
      prepare: async () => {
        const { schema, cleanup } = await createPgSchema(url);
        return { env: { DATABASE_URL: url }, pgSchema: schema, cleanup };
      },
    });
  }
  return targets;
}

/** Every database a suite can run on, whether or not this run provides it. */
function allDatabaseTargets(): Array<DatabaseTarget & { available: boolean }> {
  const [sqlite] = databaseTargets();
  const postgres = databaseTargets().find((t) => t.name === 'postgres');
  return [
    { ...sqlite!, available: true },
    postgres
      ? { ...postgres, available: true }
      : {
          name: 'postgres',
          available: false,
          prepare: () => Promise.reject(new Error('TEST_DATABASE_URL is not set')),
        },
  ];
}

/**
 * Declares the suite once per database (`$name` in the title becomes `sqlite` or `postgres`).
 * A database this run does not provide still declares its suite, skipped, so the runner's
 * summary counts the tests that did not run instead of hiding them.
 */
export function describeEachDatabase(
  title: string,
  body: (target: DatabaseTarget) => void,
  options: { only?: DatabaseTarget['name'] } = {},
): void {
  for (const target of allDatabaseTargets()) {
    if (options.only && target.name !== options.only) continue;
    const declare = target.available ? describe : describe.skip;
    declare(title.replace('$name', target.name), () => body(target));
  }
}
