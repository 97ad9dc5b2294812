import { spawn } from 'node:child_process';
import path from 'node:path';

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
 * Runs the real `folio` CLI from source (the same entry as bin/folio.js) in a
 * child process with exactly the given environment plus PATH and HOME.
 */
export function runCli(
  args: string[],
  env: Record<string, string> = {},
  options: {
    timeoutMs?: number;
    input?: string;
    /** A JavaScript file to run with plain node instead of the CLI's source (a build output, a script). */
    entry?: string;
  } = {},
): Promise<CliResult> {
  const nodeArgs = options.entry
    ? [path.resolve(ROOT, options.entry), ...args]
    : ['--import', 'tsx', path.join(ROOT, 'src/cli/run.ts'), ...args];
  return runProcess(process.execPath, nodeArgs, {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'silent', ...env },
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.input !== undefined ? { input: options.input } : {}),
  });
}
