/**
 * The one place Folio starts the git binary. Everything else in `src/git/`
 * goes through `runGit`, so the environment hardening, the handing over of
 * credentials (buildAuthEnv) and their redaction happen once and cannot be
 * forgotten by a caller.
 */
import { spawnCollect } from './spawn-thread.js';
import { rmSync } from 'node:fs';
import { access, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Options of one git invocation. */
export interface RunGitOptions {
  /** Extra environment for this call, applied over the hardened base (undefined removes a key). */
  env?: Record<string, string | undefined>;
  /** Written to git's stdin, which is then closed. Without it stdin is closed at once. */
  input?: string | Buffer;
  /** Kill the whole process group after this many ms (default 120 000). */
  timeoutMs?: number;
  /** Resolve with the non-zero exit code instead of throwing. */
  allowFailure?: boolean;
  /** Literal values (passwords given through the environment) to blank out of errors. */
  secrets?: readonly string[];
}

/** What a finished git invocation produced. `stdout` is the UTF-8 decoding of `stdoutBytes`. */
export interface GitResult {
  stdout: string;
  stdoutBytes: Buffer;
  stderr: string;
  code: number;
}

/**
 * A coarse reading of git's (LC_ALL=C) stderr, so services can map failures
 * to sync states and messages without parsing text themselves.
 */
export type GitErrorKind =
  'auth' | 'host-key-changed' | 'not-found' | 'rejected' | 'unavailable' | 'timeout' | 'unknown';

/**
 * A failed git invocation. `command` and `stderr` are already redacted and safe
 * to log; they are not meant for end users verbatim (services map to AppError).
 */
export class GitError extends Error {
  readonly command: string;
  /** Exit code, or null when git could not start or was killed. */
  readonly code: number | null;
  readonly stderr: string;
  readonly kind: GitErrorKind;

  constructor(command: string, code: number | null, stderr: string, kind?: GitErrorKind) {
    const firstLine = stderr.split('\n').find((l) => l.trim() !== '') ?? '';
    super(
      `${command} failed (${code === null ? 'no exit code' : `exit ${code}`})${firstLine ? `: ${firstLine}` : ''}`,
    );
    this.name = 'GitError';
    this.command = command;
    this.code = code;
    this.stderr = stderr;
    this.kind = kind ?? classifyGitFailure(stderr);
  }
}

const DEFAULT_TIMEOUT_MS = 120_000;

/**
 * Options placed before every subcommand. Hooks are off because a workspace
 * tree is user content and must never run code; `ext::` is a command-execution
 * transport; credential helpers could store or leak secrets on the host.
 */
const HARDENING_ARGS = [
  '-c', 'core.hooksPath=/dev/null',
  '-c', 'protocol.ext.allow=never',
  '-c', 'credential.helper=',
  '-c', 'core.fsmonitor=false',
  '-c', 'commit.gpgSign=false',
  '-c', 'tag.gpgSign=false',
  '-c', 'gc.autoDetach=false',
  '-c', 'init.defaultBranch=main',
]; // prettier-ignore

/**
 * GIT_* variables of the server process are dropped (a stray GIT_DIR or
 * GIT_INDEX_FILE from a hook, or GIT_TRACE logging credentials, would be
 * disastrous), except the CA settings an operator may rely on behind a proxy.
 */
const KEPT_GIT_VARS = new Set(['GIT_SSL_CAINFO', 'GIT_SSL_CAPATH']);

function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('GIT_') && !KEPT_GIT_VARS.has(key)) continue;
    if (key === 'SSH_ASKPASS') continue;
    env[key] = value;
  }
  env.GIT_TERMINAL_PROMPT = '0';
  env.GIT_CONFIG_NOSYSTEM = '1';
  env.GIT_CONFIG_GLOBAL = '/dev/null';
  env.LC_ALL = 'C';
  env.LANGUAGE = 'C';
  // BatchMode: ssh must fail rather than wait for a passphrase or host-key answer.
  env.GIT_SSH_COMMAND = ['ssh', '-o BatchMode=yes', ...SSH_LIMITS].join(' ');
  return env;
}

/**
 * ssh gives up on a host that does not connect within 30 s, and on a
 * connection that stays silent for 30 s (two unanswered keepalives 15 s apart).
 */
const SSH_LIMITS = ['-o ConnectTimeout=30', '-o ServerAliveInterval=15', '-o ServerAliveCountMax=2'];

/**
 * Options for every git command that talks to a remote: an HTTP transfer
 * slower than 1 KB/s for 30 s is abandoned (curl's low-speed limit, which
 * also ends a server that accepts the connection and then says nothing), and
 * the automatic gc and maintenance that would follow a fetch are left to
 * local commands under the workspace lock. runGit's kill timeout bounds the rest.
 */
export const NETWORK_ARGS = [
  '-c', 'http.lowSpeedLimit=1000',
  '-c', 'http.lowSpeedTime=30',
  '-c', 'gc.auto=0',
  '-c', 'maintenance.auto=false',
]; // prettier-ignore

/** Blanks `scheme://userinfo@` parts, Authorization header values and the given literal secrets. */
export function redactCredentials(text: string, secrets: readonly string[] = []): string {
  let out = text
    .replace(/([a-z][a-z0-9+.-]*:\/\/)[^/\s@]*@/gi, '$1***@')
    .replace(/(authorization:\s*[a-z]+\s+)\S+/gi, '$1***');
  // Very short values would blank unrelated text; real tokens are long.
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('***');
  return out;
}

const KIND_PATTERNS: Array<[GitErrorKind, RegExp]> = [
  // Host keys are trusted on first use, so a failed verification means the key changed.
  ['host-key-changed', /REMOTE HOST IDENTIFICATION HAS CHANGED|Host key verification failed/],
  ['timeout', /Operation too slow|Operation timed out|timed out|Timeout, server .* not responding/i],
  [
    'auth',
    /Authentication failed|could not read (Username|Password)|Permission denied \(|returned error: 40[13]/i,
  ],
  ['rejected', /\[(remote )?rejected\]|non-fast-forward|fetch first|failed to push some refs/i],
  [
    'not-found',
    /Repository not found|does not appear to be a git repository|returned error: 404|couldn't find remote ref/i,
  ],
  [
    'unavailable',
    /Could not resolve host|Connection refused|returned error: 5\d\d|Failed to connect|unable to access|Network is unreachable|Could not read from remote repository/i,
  ],
];

/** Maps git's stderr to a GitErrorKind (first matching pattern wins: auth before unavailable). */
export function classifyGitFailure(stderr: string): GitErrorKind {
  for (const [kind, pattern] of KIND_PATTERNS) if (pattern.test(stderr)) return kind;
  return 'unknown';
}

/**
 * Runs `git <args>` in `cwd` without a shell. Throws GitError on a non-zero
 * exit unless `allowFailure`; throws GitError (code null, kind 'timeout') when
 * the time limit kills it, and GitError (code null) when git cannot start.
 */
export async function runGit(
  cwd: string,
  args: readonly string[],
  options: RunGitOptions = {},
): Promise<GitResult> {
  const secrets = options.secrets ?? [];
  const command = redactCredentials(`git ${args.join(' ')}`, secrets);
  const env = { ...baseEnv(), ...options.env };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];

  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // Started from a worker thread: see spawn-thread.ts.
  const outcome = await spawnCollect({
    command: 'git',
    args: [...HARDENING_ARGS, ...args],
    cwd,
    env,
    ...(options.input !== undefined ? { input: options.input } : {}),
    timeoutMs,
  });
  if (outcome.startError !== undefined) {
    throw new GitError(command, null, redactCredentials(outcome.startError, secrets));
  }
  const stderr = redactCredentials(outcome.stderr.toString('utf8'), secrets);
  if (outcome.timedOut) {
    const limit = `stopped after ${Math.round(timeoutMs / 1000)} s without finishing`;
    throw new GitError(command, null, `${limit}\n${stderr}`, 'timeout');
  }
  const result = {
    stdout: outcome.stdout.toString('utf8'),
    stdoutBytes: outcome.stdout,
    stderr,
    code: outcome.code ?? -1,
  };
  if (result.code !== 0 && !options.allowFailure) throw new GitError(command, outcome.code, stderr);
  return result;
}

/** The installed git version ("2.39.5"), or null when git cannot be run. For readiness checks. */
export async function gitAvailable(): Promise<string | null> {
  try {
    const { stdout } = await runGit(tmpdir(), ['--version'], { timeoutMs: 10_000 });
    return /git version (\S+)/.exec(stdout)?.[1] ?? null;
  } catch {
    return null;
  }
}

/** Credentials for fetch and push. They never reach argv, the remote URL in config, or error text. */
export type GitAuth =
  | { kind: 'https'; username: string; password: string }
  | { kind: 'ssh'; privateKeyPath: string; knownHostsPath?: string };

const ASKPASS_SCRIPT = `#!/bin/sh
case "$1" in
  Username*|username*) printf '%s\\n' "$FOLIO_GIT_USERNAME" ;;
  *) printf '%s\\n' "$FOLIO_GIT_PASSWORD" ;;
esac
`;

let askPassDir: string | undefined;

/** The askpass helper holds no secret itself (it echoes env vars), so one file serves the process. */
async function askPassPath(): Promise<string> {
  if (askPassDir) {
    const file = join(askPassDir, 'askpass.sh');
    if (await access(file).then(() => true, () => false)) return file; // prettier-ignore
  }
  const dir = await mkdtemp(join(tmpdir(), 'folio-askpass-'));
  if (askPassDir === undefined) {
    process.once('exit', () => rmSync(askPassDir ?? dir, { recursive: true, force: true }));
  }
  askPassDir = dir;
  const file = join(askPassDir, 'askpass.sh');
  await writeFile(file, ASKPASS_SCRIPT, { mode: 0o700 });
  return file;
}

const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Environment and redaction list for an authenticated fetch or push.
 * https: GIT_ASKPASS answers git's prompts from env vars, which `ps` does not
 * show (unlike argv) and which are not written to .git/config (unlike a URL).
 * ssh: a fixed identity, no agent keys, trust-on-first-use host keys, no prompts.
 */
export async function buildAuthEnv(
  auth: GitAuth | undefined,
): Promise<{ env: Record<string, string>; secrets: string[] }> {
  if (!auth) return { env: {}, secrets: [] };
  if (auth.kind === 'https') {
    return {
      env: {
        GIT_ASKPASS: await askPassPath(),
        FOLIO_GIT_USERNAME: auth.username,
        FOLIO_GIT_PASSWORD: auth.password,
      },
      secrets: [auth.password],
    };
  }
  const parts = [
    'ssh',
    '-F /dev/null',
    `-i ${shellQuote(auth.privateKeyPath)}`,
    '-o IdentitiesOnly=yes',
    '-o StrictHostKeyChecking=accept-new',
    '-o BatchMode=yes',
    ...SSH_LIMITS,
  ];
  if (auth.knownHostsPath) parts.push(`-o UserKnownHostsFile=${shellQuote(auth.knownHostsPath)}`);
  return { env: { GIT_SSH_COMMAND: parts.join(' ') }, secrets: [] };
}
