import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureServerBuilt } from './web-app.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `command` from the project root and collects its output; killed after `timeoutMs`.
 * The child gets exactly `env` (the caller decides what it inherits).
 */
export function runProcess(
  command: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; timeoutMs?: number; input?: string },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/**
 * The `folio` command as users run it: node with bin/folio.js, which runs the bundle in
 * dist/ (rebuilt first when src/ is newer, so a suite tests this checkout). Starting from the
 * bundle takes a fraction of a second; compiling the TypeScript sources on the way took
 * several, for every command a suite runs.
 */
export async function folioCommand(): Promise<[string, string]> {
  await ensureServerBuilt();
  return [process.execPath, path.join(ROOT, 'bin/folio.js')];
}

/** Runs the real `folio` CLI in a child process with exactly the given environment plus PATH and HOME. */
export async function runCli(
  args: string[],
  env: Record<string, string> = {},
  options: {
    timeoutMs?: number;
    input?: string;
    /** A JavaScript file to run with plain node instead of the CLI (a build script). */
    entry?: string;
  } = {},
): Promise<CliResult> {
  const [node, ...entry] = options.entry
    ? [process.execPath, path.resolve(ROOT, options.entry)]
    : await folioCommand();
  return runProcess(node, [...entry, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'silent', ...env },
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.input !== undefined ? { input: options.input } : {}),
  });
}
