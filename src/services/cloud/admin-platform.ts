import { z } from 'zod';
import type { Actor } from '../../domain/actor.js';
import { SYSTEM_ACTOR } from '../../domain/actor.js';
import { requirePlatformOwner } from '../../domain/platform-policy.js';
import { notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { Store } from '../../store/database.js';
import * as overview from '../../store/repositories/platform-overview.js';
import type { HealthService } from '../operations/health.js';
import type { CustomDomainsService } from '../publishing/custom-domains.js';
import { recordAudit } from './admin-audit.js';

export const listDomainsInput = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20).describe('Most entries (default 20).'),
  cursor: z.string().max(253).optional().describe('next_cursor from a previous call, for the next page.'),
});

export const growthInput = z.object({
  days: z.coerce
    .number()
    .int()
    .min(1)
    .max(365)
    .default(30)
    .describe('How many days back, today included (default 30).'),
});

const DAY_MS = 86_400_000;

/** Every UTC day from `days - 1` days ago to today, oldest first. */
function dayRange(now: Date, days: number): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, i) =>
    new Date(today - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10),
  );
}

/** The platform owner's custom domains, system health and growth figures. */
export function createAdminPlatform(deps: {
  store: Store;
  clock: Clock;
  health: HealthService;
  customDomains: CustomDomainsService;
}) {
  const db = deps.store.db;

  async function domainRow(domain: string) {
    const row = await overview.findDomainWithOwner(db, domain.toLowerCase());
    if (!row) throw notFound('Custom domain');
    return row;
  }

  async function audit(actor: Actor, action: string, domain: string, details: Record<string, unknown>) {
    await recordAudit(db, {
      actorId: actor.userId,
      action,
      targetType: 'domain',
      targetId: domain,
      details,
      at: deps.clock.now().toISOString(),
    });
  }

  const totals = () => overview.platformTotals(db);

  return {
    /** Every custom domain of every workspace, by domain name. */
    async listDomains(actor: Actor, input: z.infer<typeof listDomainsInput>) {
      requirePlatformOwner(actor, 'read');
      const rows = await overview.listDomainsWithOwners(db, {
        limit: input.limit + 1,
        ...(input.cursor ? { after: input.cursor } : {}),
      });
      const data = rows.slice(0, input.limit);
      return {
        data,
        next_cursor: rows.length > input.limit ? (data[data.length - 1]?.domain ?? null) : null,
      };
    },

    /** Looks the domain's TXT record up again, verified or not. */
    async verifyDomain(actor: Actor, domain: string) {
      requirePlatformOwner(actor, 'write');
      const row = await domainRow(domain);
      const result = await deps.customDomains.recheck(row.workspace_id);
      await audit(actor, 'domain_verified', row.domain, { status: result.status, workspace: row.workspace });
      return { ...(await domainRow(row.domain)), verification: result.verification };
    },

    /** Removes the domain from its workspace; its site stops answering there. */
    async deleteDomain(actor: Actor, domain: string): Promise<void> {
      requirePlatformOwner(actor, 'delete');
      const row = await domainRow(domain);
      await deps.customDomains.remove(SYSTEM_ACTOR, row.workspace_id);
      await audit(actor, 'domain_deleted', row.domain, { workspace: row.workspace, org: row.org });
    },

    /** Readiness checks (database, git, mail backlog, disk) with the instance's totals and process figures. */
    async health(actor: Actor) {
      requirePlatformOwner(actor, 'read');
      const readiness = await deps.health.readiness();
      const memory = process.memoryUsage();
      return {
        ...readiness,
        totals: await totals(),
        process: {
          uptime_seconds: Math.round(process.uptime()),
          rss_bytes: memory.rss,
          heap_used_bytes: memory.heapUsed,
        },
      };
    },

    /** Totals of users, organizations (by plan), workspaces and pages. */
    async overview(actor: Actor) {
      requirePlatformOwner(actor, 'read');
      return totals();
    },

    /**
     * Sign-ups and active organizations per UTC day, oldest first, every day present. An
     * organization is active on a day when anything happened in one of its workspaces
     * (its activity feed: edits, comments, syncs, members).
     */
    async growth(actor: Actor, input: z.infer<typeof growthInput>) {
      requirePlatformOwner(actor, 'read');
      const days = dayRange(deps.clock.now(), input.days);
      const since = `${days[0]}T00:00:00.000Z`;
      const signupsBy = await overview.signupsPerDay(db, since);
      const activeBy = await overview.activeOrgsPerDay(db, since);
      return {
        days: days.map((d) => ({
          day: d,
          signups: signupsBy.get(d) ?? 0,
          active_orgs: activeBy.get(d) ?? 0,
        })),
      };
    },
  };
}

export type AdminPlatform = ReturnType<typeof createAdminPlatform>;
