import { parsePushPayload, verifyWebhookSignature, type WebhookHeaders } from '../../git/webhook.js';
import { payloadRepositoryUrls, repositoryKey } from '../../git/repository-key.js';
import { AppError, unauthorized } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { Store } from '../../store/database.js';
import { listLiveWithRemoteOnBranch } from '../../store/repositories/workspaces.js';

/** The delivery's JSON: a JSON body, or GitHub's form-encoded `payload=`; null when neither. */
function parseBody(rawBody: Buffer): unknown {
  const text = rawBody.toString('utf8');
  const json = text.startsWith('payload=') ? (new URLSearchParams(text).get('payload') ?? '') : text;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return null;
  }
}

/** What a shared-secret delivery did: `accepted` with the workspaces it syncs, or `ignored`. */
export type SharedWebhookResult = { status: 'accepted'; workspaces: number } | { status: 'ignored' };

/**
 * The older layouts' git webhook: one instance-wide secret,
 * GIT_WEBHOOK_SECRET, instead of each workspace's own. The delivery names no workspace,
 * so the repository URLs in its payload do: every live workspace whose `git_remote` is
 * that repository and whose branch was pushed is synced (docs/compatibility.md).
 */
export function createSharedWebhook(deps: {
  store: Store;
  logger: Logger;
  /** GIT_WEBHOOK_SECRET; without it the route answers 404, as if absent. */
  secret: string | undefined;
  requestSync: (workspaceId: string) => void;
}) {
  return {
    /** 404 when no secret is configured, 401 for a bad signature of the raw body. */
    async receive(headers: WebhookHeaders, rawBody: Buffer): Promise<SharedWebhookResult> {
      if (!deps.secret)
        throw new AppError('NOT_FOUND', 'GIT_WEBHOOK_SECRET is not configured on this instance');
      if (!verifyWebhookSignature(headers, rawBody, deps.secret)) {
        throw unauthorized('The webhook signature does not match GIT_WEBHOOK_SECRET');
      }
      const push = parsePushPayload(headers, rawBody);
      if (!push.isPush || push.deleted || push.branch === null) return { status: 'ignored' };
      const keys = new Set(
        payloadRepositoryUrls(parseBody(rawBody)).flatMap((url) => repositoryKey(url) ?? []),
      );
      if (keys.size === 0) return { status: 'ignored' };
      const candidates = await listLiveWithRemoteOnBranch(deps.store.db, push.branch);
      const matching = candidates.filter(
        (ws) => ws.git_remote && keys.has(repositoryKey(ws.git_remote) ?? ''),
      );
      deps.logger.debug({ workspaces: matching.map((ws) => ws.id) }, 'shared-secret webhook');
      for (const ws of matching) deps.requestSync(ws.id);
      return matching.length > 0
        ? { status: 'accepted', workspaces: matching.length }
        : { status: 'ignored' };
    },
  };
}
