import { createHash } from 'node:crypto';
import { monotonicFactory } from 'ulid';
import { z } from 'zod';
import type { Edition } from '../../config.js';
import type { Actor } from '../../domain/actor.js';
import { CAN } from '../../domain/policy.js';
import { AppError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { Store } from '../../store/database.js';
import * as analytics from '../../store/repositories/analytics.js';
import type { WorkspaceRow } from '../../store/schema.js';
import type { AccessService } from '../access.js';
import type { Clock } from '../../lib/clock.js';
import { randomToken } from '../../lib/secrets.js';

/** The first-party cookie holding the reader's choice: `granted` or `denied`. */
export const CONSENT_COOKIE = 'folio_analytics';

/** Rows older than this many days are pruned. */
export const ANALYTICS_RETENTION_DAYS = 90;
const PRUNE_EVERY_MS = 6 * 3_600_000;
const PLAN_CACHE_MS = 60_000;

/** What a request tells analytics about its reader; the IP is only ever hashed. */
export interface VisitorSignals {
  ip: string;
  userAgent: string;
  /** `DNT: 1` or `Sec-GPC: 1`: nothing is recorded, whatever the cookie says. */
  doNotTrack: boolean;
  /** The consent cookie says `granted`. */
  consent: boolean;
}

export const consentInput = z.object({
  consent: z.preprocess(
    (v) => (v === 'true' ? true : v === 'false' ? false : v),
    z.boolean({ error: 'consent must be true or false' }),
  ),
  /** The site footer's form: the page to go back to (a path on this host). */
  return_to: z.unknown().optional(),
});

export const analyticsRangeInput = z.object({
  days: z.coerce.number().int('days must be a whole number').min(1).max(ANALYTICS_RETENTION_DAYS).default(30),
  limit: z.coerce.number().int('limit must be a whole number').min(1).max(100).default(20),
});

/** The searches report can keep only the searches that found nothing. */
export const searchesReportInput = analyticsRangeInput.extend({
  no_results: z
    .enum(['true', 'false'], { error: 'no_results must be true or false' })
    .transform((v) => v === 'true')
    .optional(),
});

type Range = z.infer<typeof analyticsRangeInput>;

const nextId = monotonicFactory();
const dayOf = (date: Date): string => date.toISOString().slice(0, 10);

/** Search terms are grouped case- and space-insensitively and kept short. */
export const normalizeQuery = (q: string): string =>
  q.trim().toLowerCase().replace(/\s+/g, ' ').slice(0, 200);

/**
 * Privacy-respecting analytics of the published sites: page views and
 * searches are recorded only for readers who consented and send neither DNT nor GPC.
 * No IP address is stored: a reader is a hash of IP, user agent and workspace under a
 * salt that is replaced every UTC day (only the current one is kept), so visitors can
 * be counted within a day but never followed across days. Rows are pruned after 90 days.
 * Reports are for admins; the Cloud edition's Free plan has none (403 PLAN_LIMIT).
 */
export function createAnalytics(deps: {
  store: Store;
  clock: Clock;
  access: AccessService;
  logger: Logger;
  edition: Edition;
  /** The Cloud edition's answer to "does this organization's plan include analytics". */
  planAllows?: (orgId: string) => Promise<boolean>;
}) {
  const db = deps.store.db;
  let salt: { day: string; value: string } | undefined;
  const plans = new Map<string, { allowed: boolean; at: number }>();
  let timer: NodeJS.Timeout | undefined;

  /**
   * Whether the organization's plan includes analytics: every plan but
   * Cloud Free. (A small hook until the Cloud plans have a home of their own.)
   */
  async function planAllows(orgId: string, fresh = false): Promise<boolean> {
    if (deps.edition !== 'cloud') return true;
    const cached = plans.get(orgId);
    if (!fresh && cached && Date.now() - cached.at < PLAN_CACHE_MS) return cached.allowed;
    const allowed = deps.planAllows
      ? await deps.planAllows(orgId)
      : (await analytics.findOrgPlan(db, orgId)) !== 'free';
    plans.set(orgId, { allowed, at: Date.now() });
    return allowed;
  }

  async function saltFor(day: string): Promise<string> {
    if (salt?.day === day) return salt.value;
    const value = await analytics.takeDaySalt(db, day, randomToken(32));
    // Rotation: once a day has passed its salt is gone, and its hashes cannot be recomputed.
    await analytics.deleteSaltsBefore(db, day);
    salt = { day, value };
    return value;
  }

  /** The day and visitor hash to record, or null when nothing may be recorded. */
  async function visitor(workspace: WorkspaceRow, signals: VisitorSignals) {
    if (!signals.consent || signals.doNotTrack) return null;
    if (!(await planAllows(workspace.org_id))) return null;
    const now = deps.clock.now();
    const day = dayOf(now);
    const hash = createHash('sha256')
      .update(`${await saltFor(day)}\u0000${workspace.id}\u0000${signals.ip}\u0000${signals.userAgent}`)
      .digest('hex')
      .slice(0, 32);
    return { day, hash, at: now.toISOString() };
  }

  async function reportScope(actor: Actor, workspaceId: string, range: Range) {
    const { workspace } = await deps.access.require(actor, workspaceId, CAN.readAdmin);
    // Read afresh: an admin who has just upgraded sees the reports at once.
    if (!(await planAllows(workspace.org_id, true))) {
      throw new AppError(
        'PLAN_LIMIT',
        'Analytics are not included in the Free plan; upgrade to Team or Business',
      );
    }
    const since = dayOf(new Date(deps.clock.now().getTime() - (range.days - 1) * 86_400_000));
    return { workspace, since };
  }

  /** Deletes rows past the retention period; returns how many went. */
  async function prune(): Promise<number> {
    const cutoff = dayOf(new Date(deps.clock.now().getTime() - ANALYTICS_RETENTION_DAYS * 86_400_000));
    const deleted = await analytics.deleteAnalyticsBefore(db, cutoff);
    await analytics.deleteSaltsBefore(db, dayOf(deps.clock.now()));
    return deleted;
  }

  return {
    /** Whether the workspace's plan has analytics (the site offers its consent form only then). */
    available: (workspace: WorkspaceRow): Promise<boolean> => planAllows(workspace.org_id),

    /** Records one page view when the reader allows it; never throws (a failure is logged). */
    async recordView(workspace: WorkspaceRow, path: string, signals: VisitorSignals): Promise<void> {
      try {
        const v = await visitor(workspace, signals);
        if (!v) return;
        await analytics.insertPageView(db, {
          id: nextId(),
          workspace_id: workspace.id,
          path,
          visitor: v.hash,
          day: v.day,
          created_at: v.at,
        });
      } catch (err) {
        deps.logger.warn({ err, workspace_id: workspace.id }, 'recording a page view failed');
      }
    },

    /** Records one site search when the reader allows it; never throws. */
    async recordSearch(workspace: WorkspaceRow, query: string, results: number, signals: VisitorSignals) {
      try {
        const q = normalizeQuery(query);
        const v = q ? await visitor(workspace, signals) : null;
        if (!v) return;
        await analytics.insertSiteSearch(db, {
          id: nextId(),
          workspace_id: workspace.id,
          query: q,
          results,
          visitor: v.hash,
          day: v.day,
          created_at: v.at,
        });
      } catch (err) {
        deps.logger.warn({ err, workspace_id: workspace.id }, 'recording a site search failed');
      }
    },

    /** Admins: most viewed pages over the last `days` days. */
    async pages(actor: Actor, workspaceId: string, range: Range) {
      const { workspace, since } = await reportScope(actor, workspaceId, range);
      return {
        days: range.days,
        since,
        data: await analytics.topViewedPaths(db, workspace.id, since, range.limit),
      };
    },

    /**
     * Admins: most frequent site searches, with how many found nothing; with `no_results`,
     * only the searches that found nothing (what readers look for and the docs lack).
     */
    async searches(actor: Actor, workspaceId: string, range: z.infer<typeof searchesReportInput>) {
      const { workspace, since } = await reportScope(actor, workspaceId, range);
      const data = await analytics.topSearches(db, workspace.id, since, {
        limit: range.limit,
        onlyNoResults: range.no_results === true,
      });
      return { days: range.days, since, data };
    },

    /** Admins: totals and a per-day series over the last `days` days. */
    async overview(actor: Actor, workspaceId: string, range: Range) {
      const { workspace, since } = await reportScope(actor, workspaceId, range);
      const [totals, searches, daily, top] = await Promise.all([
        analytics.viewTotals(db, workspace.id, since),
        analytics.countSearches(db, workspace.id, since),
        analytics.dailyViews(db, workspace.id, since),
        analytics.topViewedPaths(db, workspace.id, since, 5),
      ]);
      return {
        days: range.days,
        since,
        views: totals.views,
        visitors: totals.visitors,
        searches,
        daily,
        top_pages: top,
      };
    },

    prune,

    /** Prunes now and every few hours until `stop`. */
    start() {
      const run = () =>
        void prune().catch((err: unknown) => deps.logger.warn({ err }, 'pruning analytics failed'));
      run();
      timer = setInterval(run, PRUNE_EVERY_MS);
      timer.unref();
    },

    stop() {
      clearInterval(timer);
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalytics>;
