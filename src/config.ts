import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { BucketLimit, BucketName } from './ratelimit/buckets.js';
import { parseRateLimits } from './ratelimit/operator-limits.js';

/**
 * The only reader of process.env. Every variable of README's Configuration is parsed
 * here once; `loadConfig` reports every problem by variable name.
 */
const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
    .optional()
    .transform((v) => (v === undefined || v === '' ? fallback : ['true', '1', 'yes'].includes(v)));

const int = (fallback: number, min: number, max: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `must be a whole number from ${min} to ${max}` });
        return z.NEVER;
      }
      return n;
    });

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v));

const optionalUrl = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v.trim() === '') return undefined;
    try {
      new URL(v);
      return v;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a URL' });
      return z.NEVER;
    }
  });

/** FOLIO_PROCESSES: a count of server processes, or `auto` (also `0`) for one per CPU. */
const processCount = z
  .string()
  .optional()
  .transform((v, ctx) => {
    const value = v?.trim().toLowerCase() ?? '';
    if (value === '') return 1;
    if (value === 'auto' || value === '0') return os.availableParallelism();
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > 256) {
      ctx.addIssue({ code: 'custom', message: 'must be auto or a whole number from 0 to 256' });
      return z.NEVER;
    }
    return n;
  });

const rateLimits = z
  .string()
  .optional()
  .transform((v, ctx) => {
    try {
      return parseRateLimits(v ?? '');
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  });

const envSchema = z.object({
  PORT: int(3000, 0, 65535),
  HOST: z.string().default('0.0.0.0'),
  FOLIO_PROCESSES: processCount,
  DATA_DIR: z.string().default('./data'),
  PUBLIC_URL: optionalUrl,
  EDITION: z.enum(['community', 'cloud']).default('community'),
  DATABASE_URL: optionalUrl.refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), {
    message: 'must be a postgres:// URL',
  }),
  REDIS_URL: optionalUrl.refine((v) => v === undefined || /^rediss?:\/\//.test(v), {
    message: 'must be a redis:// URL',
  }),
  TRUST_PROXY: bool(false),
  REGISTRATION: z.enum(['open', 'invite-only', 'closed']).default('open'),
  JWT_KEY_PATH: optionalString,
  API_KEY_PEPPER: optionalString,
  SVC_API_KEY_PEPPER: optionalString,
  ARGON2_MEMORY: int(65536, 1024, 4 * 1024 * 1024),
  ARGON2_TIME: int(3, 1, 100),
  ARGON2_THREADS: int(2, 1, 64),
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().default('Folio <folio@localhost>'),
  AI_PROVIDER: z.enum(['openai', 'anthropic', '']).optional(),
  AI_BASE_URL: optionalUrl,
  AI_API_KEY: optionalString,
  AI_MODEL: optionalString,
  OIDC_GOOGLE_CLIENT_ID: optionalString,
  OIDC_GOOGLE_CLIENT_SECRET: optionalString,
  OIDC_GOOGLE_ISSUER: z.string().default('https://accounts.google.com'),
  OIDC_GITHUB_CLIENT_ID: optionalString,
  OIDC_GITHUB_CLIENT_SECRET: optionalString,
  OIDC_GITHUB_BASE_URL: z.string().default('https://github.com'),
  OIDC_GITHUB_API_URL: z.string().default('https://api.github.com'),
  WEBAUTHN_RP_ID: optionalString,
  WEBAUTHN_RP_DISPLAY_NAME: z.string().default('Folio'),
  WEBAUTHN_RP_ORIGINS: optionalString,
  FF_METRICS: bool(false),
  FF_COEDIT: bool(true),
  COEDIT_SAVE_DELAY_MS: int(2000, 50, 10 * 60_000),
  COEDIT_SAVE_MAX_WAIT_MS: int(10_000, 50, 60 * 60_000),
  METRICS_PORT: int(0, 0, 65535),
  BACKUP_RETENTION_DAYS: int(7, 0, 3650),
  BACKUP_INTERVAL_HOURS: int(24, 0, 24 * 365),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_API_BASE: z.string().default('https://api.stripe.com'),
  FRONTMATTER_MODE: z.enum(['strict', 'lenient']).default('lenient'),
  GIT_SYNC_INTERVAL: int(300, 0, 7 * 24 * 3600),
  GIT_WEBHOOK_SECRET: optionalString,
  GIT_ALLOW_FILE_REMOTES: bool(false),
  GIT_FILE_REMOTE_ROOT: optionalString,
  GIT_NETWORK_TIMEOUT: int(120, 1, 24 * 3600),
  GIT_ALLOW_PRIVATE_HOSTS: bool(false),
  WEBHOOK_ALLOW_PRIVATE_HOSTS: bool(false),
  GIT_MAX_PAGE_BYTES: int(10 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
  RENDER_MAX_BYTES: int(2 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
  RENDER_TIMEOUT_MS: int(10_000, 100, 10 * 60_000),
  RENDER_WORKERS: int(0, 0, 64),
  FOLIO_SERVER_URL: optionalUrl,
  MCP_CORS_ORIGINS: optionalString,
  RATE_LIMITS: rateLimits,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Edition = 'community' | 'cloud';

export interface Config {
  readonly port: number;
  readonly host: string;
  /**
   * Server processes `folio serve` runs on one port (FOLIO_PROCESSES, `auto` = one per CPU);
   * more than one needs `databaseUrl` and `redisUrl`, which they share.
   */
  readonly processes: number;
  readonly dataDir: string;
  readonly publicUrl: string;
  readonly edition: Edition;
  readonly databaseUrl: string | undefined;
  readonly redisUrl: string | undefined;
  readonly trustProxy: boolean;
  /** Who may register once the first account exists: anyone, invitees only, or nobody. */
  readonly registration: 'open' | 'invite-only' | 'closed';
  readonly jwtKeyPath: string;
  readonly apiKeyPepper: string | undefined;
  readonly argon2: { readonly memoryCost: number; readonly timeCost: number; readonly parallelism: number };
  readonly smtpUrl: string | undefined;
  readonly mailFrom: string;
  readonly ai: {
    readonly provider: 'openai' | 'anthropic' | undefined;
    readonly baseUrl: string | undefined;
    readonly apiKey: string | undefined;
    readonly model: string | undefined;
  };
  readonly oidc: {
    readonly google: { clientId?: string; clientSecret?: string; issuer: string };
    readonly github: { clientId?: string; clientSecret?: string; baseUrl: string; apiUrl: string };
  };
  readonly webauthn: { rpId?: string; rpName: string; origins: string[] };
  readonly metrics: { enabled: boolean; port: number | undefined };
  /** Real-time co-editing of pages over `/ws` (FF_COEDIT). */
  readonly coedit: boolean;
  /**
   * When a co-editing room saves: this long after the last change (COEDIT_SAVE_DELAY_MS), and
   * at the latest this long after the first unsaved one (COEDIT_SAVE_MAX_WAIT_MS).
   */
  readonly coeditSave: { readonly debounceMs: number; readonly maxWaitMs: number };
  readonly backups: { retentionDays: number; intervalHours: number };
  readonly stripe: { secretKey?: string; webhookSecret?: string; apiBase: string };
  readonly frontmatterMode: 'strict' | 'lenient';
  readonly gitSyncIntervalSeconds: number;
  readonly gitAllowFileRemotes: boolean;
  /**
   * The absolute folder local (`file://`, path) remotes must lie in; set exactly when
   * `gitAllowFileRemotes` is (only the platform owner may connect such a remote).
   */
  readonly gitFileRemoteRoot: string | undefined;
  /** Longest a git fetch or push may run before it is killed (GIT_NETWORK_TIMEOUT, seconds). */
  readonly gitNetworkTimeoutSeconds: number;
  /**
   * Whether git remotes may point at loopback, private or link-local hosts and use plain
   * http:// (a self-hosted Gitea on the LAN); off by default as a guard against SSRF.
   */
  readonly gitAllowPrivateHosts: boolean;
  /**
   * The older layouts' instance-wide git webhook secret (GIT_WEBHOOK_SECRET); unset, their
   * webhook routes answer 404. Current webhooks use each workspace's own secret.
   */
  readonly gitWebhookSecret: string | undefined;
  /** Outbound webhooks may reach loopback, private and link-local receivers, and plain http. */
  readonly webhookAllowPrivateHosts: boolean;
  /** Page files pulled from git above this size are reported, not indexed. */
  readonly gitMaxPageBytes: number;
  readonly render: {
    /** Pages above this size are shown as preformatted text instead of rendered. */
    readonly maxBytes: number;
    /** Time budget of one render in a worker before it is stopped. */
    readonly timeoutMs: number;
    /** Render worker threads; 0 sizes the pool from the CPU count. */
    readonly workers: number;
  };
  readonly serverUrl: string | undefined;
  /** Browser origins allowed to call `/mcp` (CORS); none by default. */
  readonly mcpCorsOrigins: string[];
  /** RATE_LIMITS: the operator's changes to the API's limits (`off`: unlimited). */
  readonly rateLimits: Partial<Record<BucketName, Partial<BucketLimit>>>;
  readonly logLevel: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses the environment into a frozen Config. Throws ConfigError listing every
 * invalid variable by name, so a bad start names all its problems at once.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`),
    );
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const fileRemoteRoot =
    e.GIT_FILE_REMOTE_ROOT === undefined ? undefined : path.resolve(e.GIT_FILE_REMOTE_ROOT);
  if (e.GIT_ALLOW_FILE_REMOTES && fileRemoteRoot === undefined) {
    throw new ConfigError(['GIT_FILE_REMOTE_ROOT: required when GIT_ALLOW_FILE_REMOTES is true']);
  }
  if (e.GIT_ALLOW_FILE_REMOTES && fileRemoteRoot !== undefined && isWithin(fileRemoteRoot, dataDir)) {
    throw new ConfigError(['GIT_FILE_REMOTE_ROOT: must be outside DATA_DIR']);
  }
  const config: Config = {
    port: e.PORT,
    host: e.HOST,
    processes: e.FOLIO_PROCESSES,
    dataDir,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    edition: e.EDITION,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    trustProxy: e.TRUST_PROXY,
    registration: e.REGISTRATION,
    jwtKeyPath: path.resolve(e.JWT_KEY_PATH ?? path.join(dataDir, 'jwt-private.pem')),
    apiKeyPepper: e.API_KEY_PEPPER ?? e.SVC_API_KEY_PEPPER,
    argon2: { memoryCost: e.ARGON2_MEMORY, timeCost: e.ARGON2_TIME, parallelism: e.ARGON2_THREADS },
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    ai: {
      provider: e.AI_PROVIDER || undefined,
      baseUrl: e.AI_BASE_URL,
      apiKey: e.AI_API_KEY,
      model: e.AI_MODEL,
    },
    oidc: {
      google: {
        clientId: e.OIDC_GOOGLE_CLIENT_ID,
        clientSecret: e.OIDC_GOOGLE_CLIENT_SECRET,
        issuer: e.OIDC_GOOGLE_ISSUER,
      },
      github: {
        clientId: e.OIDC_GITHUB_CLIENT_ID,
        clientSecret: e.OIDC_GITHUB_CLIENT_SECRET,
        baseUrl: e.OIDC_GITHUB_BASE_URL,
        apiUrl: e.OIDC_GITHUB_API_URL,
      },
    },
    webauthn: {
      rpId: e.WEBAUTHN_RP_ID,
      rpName: e.WEBAUTHN_RP_DISPLAY_NAME,
      origins: (e.WEBAUTHN_RP_ORIGINS ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    },
    metrics: { enabled: e.FF_METRICS, port: e.METRICS_PORT || undefined },
    coedit: e.FF_COEDIT,
    coeditSave: { debounceMs: e.COEDIT_SAVE_DELAY_MS, maxWaitMs: e.COEDIT_SAVE_MAX_WAIT_MS },
    backups: { retentionDays: e.BACKUP_RETENTION_DAYS, intervalHours: e.BACKUP_INTERVAL_HOURS },
    stripe: {
      secretKey: e.STRIPE_SECRET_KEY,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET,
      apiBase: e.STRIPE_API_BASE,
    },
    frontmatterMode: e.FRONTMATTER_MODE,
    gitSyncIntervalSeconds: e.GIT_SYNC_INTERVAL,
    gitWebhookSecret: e.GIT_WEBHOOK_SECRET,
    gitAllowFileRemotes: e.GIT_ALLOW_FILE_REMOTES,
    gitFileRemoteRoot: e.GIT_ALLOW_FILE_REMOTES ? fileRemoteRoot : undefined,
    gitNetworkTimeoutSeconds: e.GIT_NETWORK_TIMEOUT,
    gitAllowPrivateHosts: e.GIT_ALLOW_PRIVATE_HOSTS,
    webhookAllowPrivateHosts: e.WEBHOOK_ALLOW_PRIVATE_HOSTS,
    gitMaxPageBytes: e.GIT_MAX_PAGE_BYTES,
    render: { maxBytes: e.RENDER_MAX_BYTES, timeoutMs: e.RENDER_TIMEOUT_MS, workers: e.RENDER_WORKERS },
    serverUrl: e.FOLIO_SERVER_URL,
    rateLimits: e.RATE_LIMITS,
    mcpCorsOrigins: (e.MCP_CORS_ORIGINS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    logLevel: e.LOG_LEVEL,
  };
  return deepFreeze(config);
}

/** A config for tests and embedders: defaults plus the given variables, no process.env. */
export function configFrom(vars: Record<string, string | undefined>): Config {
  return loadConfig(vars as NodeJS.ProcessEnv);
}

/** Whether `child` is `parent` or lies below it (both absolute). */
function isWithin(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
