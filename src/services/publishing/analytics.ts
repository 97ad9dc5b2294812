import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { monotonicFactory } from 'ulid';
import { z } from 'zod';
import type { Edition } from '../../config.js';
import type { Actor } from '../../domain/actor.js';
import { CAN } from '../../domain/policy.js';
import { AppError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { Store } from '../../store/database.js';
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
const num = (v: unknown): number => Number(v ?? 0) || 0;
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
      : (await db.selectFrom('orgs').select('plan').where('id', '=', orgId).executeTakeFirst())?.plan !==
        'free';
    plans.set(orgId, { allowed, at: Date.now() });
    return allowed;
  }

  async function saltFor(day: string): Promise<string> {
    if (salt?.day === day) return salt.value;
    await db
      .insertInto('analytics_salts')
      .values({ day, salt: randomToken(32) })
      .onConflict((oc) => oc.column('day').doNothing())
      .execute();
    const row = await db
      .selectFrom('analytics_salts')
      .select('salt')
      .where('day', '=', day)
      .executeTakeFirstOrThrow();
    // Rotation: once a day has passed its salt is gone, and its hashes cannot be recomputed.
    await db.deleteFrom('analytics_salts').where('day', '<', day).execute();
    salt = { day, value: row.salt };
    return row.salt;
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

  async function topPages(workspaceId: string, since: string, limit: number) {
    const rows = await db
      .selectFrom('page_views')
      .select([
        'path',
        sql<number>`count(*)`.as('views'),
        sql<number>`count(distinct visitor)`.as('visitors'),
      ])
      .where('workspace_id', '=', workspaceId)
      .where('day', '>=', since)
      .groupBy('path')
      .orderBy(sql`count(*)`, 'desc')
      .orderBy('path')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ path: r.path, views: num(r.views), visitors: num(r.visitors) }));
  }

  /** Deletes rows past the retention period; returns how many went. */
  async function prune(): Promise<number> {
    const cutoff = dayOf(new Date(deps.clock.now().getTime() - ANALYTICS_RETENTION_DAYS * 86_400_000));
    const views = await db.deleteFrom('page_views').where('day', '<', cutoff).executeTakeFirst();
    const searches = await db.deleteFrom('site_searches').where('day', '<', cutoff).executeTakeFirst();
    await db.deleteFrom('analytics_salts').where('day', '<', dayOf(deps.clock.now())).execute();
    return num(views.numDeletedRows) + num(searches.numDeletedRows);
  }

  return {
    /** Whether the workspace's plan has analytics (the site offers its consent form only then). */
    available: (workspace: WorkspaceRow): Promise<boolean> => planAllows(workspace.org_id),

    /** Records one page view when the reader allows it; never throws (a failure is logged). */
    async recordView(workspace: WorkspaceRow, path: string, signals: VisitorSignals): Promise<void> {
      try {
        const v = await visitor(workspace, signals);
        if (!v) return;
        await db
          .insertInto('page_views')
          .values({
            id: nextId(),
            workspace_id: workspace.id,
            path,
            visitor: v.hash,
            day: v.day,
            created_at: v.at,
          })
          .execute();
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
        await db
          .insertInto('site_searches')
          .values({
            id: nextId(),
            workspace_id: workspace.id,
            query: q,
            results,
            visitor: v.hash,
            day: v.day,
            created_at: v.at,
          })
          .execute();
      } catch (err) {
        deps.logger.warn({ err, workspace_id: workspace.id }, 'recording a site search failed');
      }
    },

    /** Admins: most viewed pages over the last `days` days. */
    async pages(actor: Actor, workspaceId: string, range: Range) {
      const { workspace, since } = await reportScope(actor, workspaceId, range);
      return { days: range.days, since, data: await topPages(workspace.id, since, range.limit) };
    },

    /**
     * Admins: most frequent site searches, with how many found nothing; with `no_results`,
     * only the searches that found nothing (what readers look for and the docs lack).
     */
    async searches(actor: Actor, workspaceId: string, range: z.infer<typeof searchesReportInput>) {
      const { workspace, since } = await reportScope(actor, workspaceId, range);
      const rows = await db
        .selectFrom('site_searches')
        .$if(range.no_results === true, (qb) => qb.where('results', '=', 0))
        .select([
          'query',
          sql<number>`count(*)`.as('count'),
          sql<number>`sum(case when results = 0 then 1 else 0 end)`.as('no_results'),
        ])
        .where('workspace_id', '=', workspace.id)
        .where('day', '>=', since)
        .groupBy('query')
        .orderBy(sql`count(*)`, 'desc')
        .orderBy('query')
        .limit(range.limit)
        .execute();
      return {
        days: range.days,
        since,
        data: rows.map((r) => ({ query: r.query, count: num(r.count), no_results: num(r.no_results) })),
      };
    },

    /** Admins: totals and a per-day series over the last `days` days. */
    async overview(actor: Actor, workspaceId: string, range: Range) {
      const { workspace, since } = await reportScope(actor, workspaceId, range);
      const views = db
        .selectFrom('page_views')
        .where('workspace_id', '=', workspace.id)
        .where('day', '>=', since);
      const [totals, searches, daily, top] = await Promise.all([
        views
          .select([sql<number>`count(*)`.as('views'), sql<number>`count(distinct visitor)`.as('visitors')])
          .executeTakeFirst(),
        db
          .selectFrom('site_searches')
          .select(sql<number>`count(*)`.as('n'))
          .where('workspace_id', '=', workspace.id)
          .where('day', '>=', since)
          .executeTakeFirst(),
        views
          .select([
            'day',
            sql<number>`count(*)`.as('views'),
            sql<number>`count(distinct visitor)`.as('visitors'),
          ])
          .groupBy('day')
          .orderBy('day')
          .execute(),
        topPages(workspace.id, since, 5),
      ]);
      return {
        days: range.days,
        since,
        views: num(totals?.views),
        visitors: num(totals?.visitors),
        searches: num(searches?.n),
        daily: daily.map((d) => ({ day: d.day, views: num(d.views), visitors: num(d.visitors) })),
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
