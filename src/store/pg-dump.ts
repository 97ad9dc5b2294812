import { spawn } from 'node:child_process';

/** pg_dump is not installed (or not on PATH): the backup holds a note instead of a dump. */
export class PgDumpUnavailableError extends Error {
  constructor() {
    super(
      'pg_dump was not found on PATH; install the PostgreSQL client tools to include the database in backups',
    );
    this.name = 'PgDumpUnavailableError';
  }
}

/**
 * Dumps the database at `url` (only `schema` when given) as plain SQL into `file`, which
 * `psql` restores. The password travels in PGPASSWORD rather than on the command line,
 * where any local user could read it in the process list.
 */
export function pgDump(url: string, schema: string | undefined, file: string): Promise<void> {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  const args = [
    '--format=plain',
    '--no-owner',
    '--no-privileges',
    `--file=${file}`,
    `--dbname=${parsed.toString()}`,
  ];
  if (schema) args.push(`--schema=${schema}`);
  return new Promise((resolve, reject) => {
    const child = spawn('pg_dump', args, {
      env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString();
    });
    child.on('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'ENOENT' ? new PgDumpUnavailableError() : err),
    );
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`pg_dump exited with code ${code}: ${stderr.trim()}`)),
    );
  });
}
