/**
 * Inbound git push webhooks (POST /api/git/webhook/:workspace_id): signature
 * checks against the workspace secret, and reading the pushed branch out of
 * GitHub, GitLab and Gitea/Forgejo payloads.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** Request headers as Node or Fastify give them; names are matched case-insensitively. */
export type WebhookHeaders = Record<string, string | string[] | undefined>;

function header(headers: WebhookHeaders, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted) continue;
    const v = Array.isArray(value) ? value[0] : value;
    return v === undefined ? undefined : v.trim();
  }
  return undefined;
}

/** Compares an expected HMAC digest with a hex string; malformed or wrong-length hex is a mismatch. */
function digestMatches(expected: Buffer, hex: string): boolean {
  if (!/^[0-9a-f]+$/i.test(hex) || hex.length !== expected.length * 2) return false;
  return timingSafeEqual(expected, Buffer.from(hex, 'hex'));
}

/** `algo=<hex>` against the HMAC of the body; only sha1 and sha256 are accepted. */
function prefixedSignatureMatches(value: string, rawBody: Buffer, secret: string): boolean {
  const m = /^(sha1|sha256)=(.*)$/i.exec(value);
  if (!m) return false;
  const algorithm = (m[1] ?? '').toLowerCase();
  return digestMatches(createHmac(algorithm, secret).update(rawBody).digest(), m[2] ?? '');
}

/**
 * True when the request carries a valid proof of `secret`:
 * `X-Hub-Signature-256: sha256=<hex>` (GitHub, Gitea, Forgejo),
 * `X-Hub-Signature: sha1=<hex>` or `sha256=<hex>`, `X-Gitea-Signature` /
 * `X-Forgejo-Signature: <hex>` (HMAC-SHA256), or `X-Gitlab-Token: <secret>`.
 * The first header present in that order decides, so a forged weak header
 * cannot sidestep a failing strong one. An empty secret never verifies.
 */
export function verifyWebhookSignature(headers: WebhookHeaders, rawBody: Buffer, secret: string): boolean {
  if (secret === '') return false;
  const sha256 = header(headers, 'x-hub-signature-256');
  if (sha256 !== undefined)
    return /^sha256=/i.test(sha256) && prefixedSignatureMatches(sha256, rawBody, secret);
  const legacy = header(headers, 'x-hub-signature');
  if (legacy !== undefined) return prefixedSignatureMatches(legacy, rawBody, secret);
  const bare = header(headers, 'x-gitea-signature') ?? header(headers, 'x-forgejo-signature');
  if (bare !== undefined) return digestMatches(createHmac('sha256', secret).update(rawBody).digest(), bare);
  const token = header(headers, 'x-gitlab-token');
  if (token !== undefined) {
    // Hashing both sides gives equal lengths, so timingSafeEqual cannot throw or leak the length.
    const a = createHash('sha256').update(token).digest();
    const b = createHash('sha256').update(secret).digest();
    return timingSafeEqual(a, b);
  }
  return false;
}

/** What a webhook delivery means for sync. */
export interface PushInfo {
  host: 'github' | 'gitlab' | 'gitea';
  /** The pushed branch, or null for tags, non-push events and unreadable payloads. */
  branch: string | null;
  /** Commits in the push (GitLab's and Gitea's totals when given, since their lists are capped). */
  commits: number;
  /** A push (branch or tag); pings and other events are not. */
  isPush: boolean;
  /** The push deleted the ref, so there is nothing to pull. */
  deleted: boolean;
}

const ZERO_SHA = /^0+$/;

/** Accepts a parsed object, a JSON string or Buffer, or GitHub's form-encoded `payload=` body. */
function asObject(body: unknown): Record<string, unknown> {
  let value = body;
  if (Buffer.isBuffer(value)) value = value.toString('utf8');
  if (typeof value === 'string') {
    const text = value.startsWith('payload=') ? (new URLSearchParams(value).get('payload') ?? '') : value;
    try {
      value = JSON.parse(text) as unknown;
    } catch {
      return {};
    }
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/**
 * Reads a push delivery. The host comes from the event header (Gitea and
 * Forgejo also send X-GitHub-Event, so theirs are checked first); without any
 * event header GitLab's `object_kind` is recognised, else GitHub is assumed.
 */
export function parsePushPayload(headers: WebhookHeaders, body: unknown): PushInfo {
  const payload = asObject(body);
  const giteaEvent = header(headers, 'x-gitea-event') ?? header(headers, 'x-forgejo-event');
  const gitlabEvent = header(headers, 'x-gitlab-event');
  const githubEvent = header(headers, 'x-github-event');

  let host: PushInfo['host'];
  let isPush: boolean;
  if (giteaEvent !== undefined) {
    host = 'gitea';
    isPush = giteaEvent.toLowerCase() === 'push';
  } else if (gitlabEvent !== undefined) {
    host = 'gitlab';
    isPush = /^(push|tag push) hook$/i.test(gitlabEvent);
  } else if (githubEvent !== undefined) {
    host = 'github';
    isPush = githubEvent.toLowerCase() === 'push';
  } else if (payload.object_kind !== undefined) {
    host = 'gitlab';
    isPush = payload.object_kind === 'push' || payload.object_kind === 'tag_push';
  } else {
    host = 'github';
    isPush = typeof payload.ref === 'string' && typeof payload.after === 'string';
  }

  const ref = typeof payload.ref === 'string' ? payload.ref : '';
  const branch = isPush && ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) || null : null;
  const list = Array.isArray(payload.commits) ? payload.commits.length : 0;
  const total = payload.total_commits_count ?? payload.total_commits;
  const commits = isPush ? (typeof total === 'number' && total >= list ? total : list) : 0;
  const deleted =
    isPush &&
    (payload.deleted === true || (typeof payload.after === 'string' && ZERO_SHA.test(payload.after)));
  return { host, branch, commits, isPush, deleted };
}
