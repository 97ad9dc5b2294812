import { promises as dns } from 'node:dns';
import { domainToASCII } from 'node:url';
import { z } from 'zod';
import type { Actor } from '../../domain/actor.js';
import { CAN } from '../../domain/policy.js';
import { AppError, invalid, notFound } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { Store } from '../../store/database.js';
import * as domains from '../../store/repositories/custom-domains.js';
import type { AccessService } from '../access.js';
import { actorIdOf, record } from '../activity.js';
import type { Clock } from '../../lib/clock.js';
import { randomToken } from '../../lib/secrets.js';

/**
 * Looks up TXT records. The default is the system resolver; tests (and operators with
 * special DNS needs) pass their own through `createFolio(config, { txtResolver })`.
 */
export interface TxtResolver {
  /** The TXT records at `name`, each as its chunks (Node's `dns.promises.resolveTxt` shape). */
  resolveTxt(name: string): Promise<string[][]>;
}

/** `dns.promises.resolveTxt`. */
export const systemTxtResolver: TxtResolver = { resolveTxt: (name) => dns.resolveTxt(name) };

export const customDomainInput = z.object({
  domain: z.string({ error: 'domain is required' }).trim().min(1, 'domain is required').max(300),
});

/** A TLS terminator's question, `?domain=`: anything but one string asks about no domain. */
export const allowedDomainInput = z.object({ domain: z.string().catch('') });

/** The API's custom domain. */
export interface CustomDomainRecord {
  domain: string;
  status: 'pending' | 'verified';
  verification: { type: 'TXT'; name: string; value: string };
  verified_at: string | null;
}

/** The TXT record's name: a label of its own, so it never clashes with the domain's other records. */
export const VERIFICATION_LABEL = '_folio-verify';
const LOOKUP_TIMEOUT_MS = 5_000;
/** Other instances learn of newly verified domains this often (and pending ones are re-checked). */
const REFRESH_MS = 60_000;
/** Paths a custom domain keeps for itself instead of mapping them onto the site. */
const PASSTHROUGH = ['/api/analytics/consent'];

const LABEL_RE = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const TLD_RE = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/** The host name of a Host header value, lowercase, without port or trailing dot. */
export function hostOf(header: string | undefined): string {
  if (!header) return '';
  const host = header.startsWith('[') ? header.slice(0, header.indexOf(']') + 1) : header.split(':')[0];
  return (host ?? '').trim().toLowerCase().replace(/\.$/, '');
}

/**
 * A domain as stored: lowercase ASCII (IDNs in punycode), no trailing dot, at least two
 * labels, a real-looking TLD, not an IP address or `localhost`, and not this instance's
 * own host. Anything else is 400 naming `domain`.
 */
export function normalizeDomain(raw: string, ownHost: string): string {
  const text = raw.trim().toLowerCase().replace(/\.$/, '');
  const bad = (why: string) => invalid('domain', `Not a usable domain name: ${why}`);
  if (/[\s/:?#@\\[\]]/.test(text)) throw bad('give the bare host name, e.g. docs.example.com');
  const ascii = domainToASCII(text);
  if (!ascii || ascii.length > 253) throw bad('it is not a valid host name');
  const labels = ascii.split('.');
  if (labels.length < 2) throw bad('it needs at least two labels, e.g. docs.example.com');
  if (!labels.every((l) => LABEL_RE.test(l))) throw bad('each label is 1-63 letters, digits or dashes');
  if (!TLD_RE.test(labels[labels.length - 1] ?? '')) throw bad('its last label is not a top-level domain');
  if (ascii === 'localhost' || ascii.endsWith('.localhost')) throw bad('localhost cannot be a custom domain');
  if (ascii === ownHost) throw bad('it is this instance’s own host');
  return ascii;
}

/**
 * Custom domains: an admin sets a domain, proves control with a TXT record
 * at `_folio-verify.<domain>`, and the verified domain serves the workspace's site at `/`.
 * Verified domains are kept in memory so the HTTP layer maps a Host header to a site
 * without a database round trip.
 */
export function createCustomDomains(deps: {
  store: Store;
  clock: Clock;
  access: AccessService;
  logger: Logger;
  publicUrl: string;
  resolver: TxtResolver;
}) {
  const db = deps.store.db;
  const ownHost = hostOf(new URL(deps.publicUrl).host);
  /** Verified domain -> workspace slug. */
  let verified = new Map<string, string>();
  let timer: NodeJS.Timeout | undefined;

  const present = (row: { domain: string; token: string; status: string; verified_at: string | null }) =>
    ({
      domain: row.domain,
      status: row.status === 'verified' ? 'verified' : 'pending',
      verification: { type: 'TXT', name: `${VERIFICATION_LABEL}.${row.domain}`, value: row.token },
      verified_at: row.verified_at,
    }) satisfies CustomDomainRecord;

  async function lookupMatches(domain: string, token: string): Promise<boolean> {
    let timeout: NodeJS.Timeout | undefined;
    try {
      const records = await Promise.race([
        deps.resolver.resolveTxt(`${VERIFICATION_LABEL}.${domain}`),
        new Promise<string[][]>((_, reject) => {
          timeout = setTimeout(() => reject(new Error('TXT lookup timed out')), LOOKUP_TIMEOUT_MS);
        }),
      ]);
      return records.some((chunks) => chunks.join('').trim() === token);
    } catch {
      // NXDOMAIN, no TXT record, a timeout: simply not verified yet.
      return false;
    } finally {
      clearTimeout(timeout);
    }
  }

  /** Checks a pending domain's TXT record and marks it verified when it matches. */
  async function verify(workspaceId: string): Promise<void> {
    const row = await domains.findDomainOfWorkspace(db, workspaceId);
    if (!row || row.status === 'verified') return;
    const ok = await lookupMatches(row.domain, row.token);
    const now = deps.clock.now().toISOString();
    await domains.updateDomainCheck(
      db,
      workspaceId,
      row.domain,
      ok ? { status: 'verified', verified_at: now, checked_at: now } : { checked_at: now },
    );
    if (ok) await refresh();
  }

  /** Reloads the verified domains of live workspaces. */
  async function refresh(): Promise<void> {
    const rows = await domains.listVerifiedDomainsOfLiveWorkspaces(db);
    verified = new Map(rows.map((r) => [r.domain, r.slug]));
  }

  /** The slug of the workspace whose site a Host header names, or null (not a verified domain, or our own host). */
  function siteForHost(hostHeader: string | undefined): string | null {
    if (verified.size === 0) return null;
    const host = hostOf(hostHeader);
    if (!host || host === ownHost) return null;
    return verified.get(host) ?? null;
  }

  async function read(workspaceId: string) {
    const row = await domains.findDomainOfWorkspace(db, workspaceId);
    if (!row) throw notFound('Custom domain');
    return row;
  }

  return {
    refresh,

    /** Admins: sets (or replaces) the workspace's domain and checks its TXT record at once. */
    async set(
      actor: Actor,
      workspaceId: string,
      input: z.infer<typeof customDomainInput>,
    ): Promise<CustomDomainRecord> {
      const { workspace } = await deps.access.require(actor, workspaceId, CAN.administer);
      const domain = normalizeDomain(input.domain, ownHost);
      const holder = await domains.findWorkspaceIdOfDomain(db, domain);
      if (holder !== undefined && holder !== workspace.id) {
        throw new AppError('CONFLICT', `${domain} is already used by another workspace`, {
          details: { field: 'domain' },
        });
      }
      const current = await domains.findDomainOfWorkspace(db, workspace.id);
      const now = deps.clock.now().toISOString();
      if (current?.domain !== domain) {
        await db.transaction().execute(async (trx) => {
          await domains.replaceDomainOfWorkspace(trx, {
            workspace_id: workspace.id,
            domain,
            token: `folio-verify=${randomToken(18)}`,
            status: 'pending',
            verified_at: null,
            checked_at: null,
            created_at: now,
          });
          await record(trx, {
            workspaceId: workspace.id,
            action: 'custom_domain_set',
            actorId: actorIdOf(actor),
            at: now,
            details: { domain, previous: current?.domain ?? null },
          });
        });
        if (current?.status === 'verified') await refresh();
      }
      await verify(workspace.id);
      return present(await read(workspace.id));
    },

    /** Admins: the domain and its status; a pending domain is re-checked first. */
    async get(actor: Actor, workspaceId: string): Promise<CustomDomainRecord> {
      const { workspace } = await deps.access.require(actor, workspaceId, CAN.readAdmin);
      await verify(workspace.id);
      return present(await read(workspace.id));
    },

    /** Admins: the site stops answering on the domain. */
    async remove(actor: Actor, workspaceId: string): Promise<void> {
      const { workspace } = await deps.access.require(actor, workspaceId, CAN.administerDelete);
      const row = await read(workspace.id);
      await db.transaction().execute(async (trx) => {
        await domains.deleteDomainOfWorkspace(trx, workspace.id);
        await record(trx, {
          workspaceId: workspace.id,
          action: 'custom_domain_removed',
          actorId: actorIdOf(actor),
          at: deps.clock.now().toISOString(),
          details: { domain: row.domain },
        });
      });
      await refresh();
    },

    /**
     * The platform owner's re-check: looks the TXT record up again even for a verified
     * domain, which goes back to pending when the record is gone. Answers the new state.
     */
    async recheck(workspaceId: string): Promise<CustomDomainRecord> {
      const row = await read(workspaceId);
      const ok = await lookupMatches(row.domain, row.token);
      const now = deps.clock.now().toISOString();
      await domains.updateDomainCheck(
        db,
        workspaceId,
        row.domain,
        ok
          ? { status: 'verified', verified_at: row.verified_at ?? now, checked_at: now }
          : { status: 'pending', checked_at: now },
      );
      await refresh();
      return present(await read(workspaceId));
    },

    /** For a TLS terminator's on-demand `ask`: true only for a verified domain of a live workspace. */
    async isAllowed(domain: string): Promise<boolean> {
      const host = hostOf(domain);
      if (!host) return false;
      return domains.isVerifiedDomainOfLiveWorkspace(db, host);
    },

    siteForHost,

    /**
     * Fastify's `rewriteUrl`: on a verified custom domain every path is the site's
     * (`/guides/setup` → `/p/<slug>/guides/setup`), except the consent endpoint the
     * site's own footer posts to.
     */
    rewriteUrl(hostHeader: string | undefined, url: string): string {
      const slug = siteForHost(hostHeader);
      if (!slug) return url;
      const path = url.split('?')[0] ?? url;
      if (PASSTHROUGH.includes(path)) return url;
      return `/p/${encodeURIComponent(slug)}${url.startsWith('/') ? url : `/${url}`}`;
    },

    /** Loads the verified domains and refreshes them (and re-checks pending ones) periodically. */
    start() {
      const tick = async () => {
        try {
          const pending = await domains.listWorkspaceIdsWithPendingDomain(db);
          for (const workspaceId of pending) await verify(workspaceId);
          await refresh();
        } catch (err) {
          deps.logger.warn({ err }, 'refreshing custom domains failed');
        }
      };
      void tick();
      timer = setInterval(() => void tick(), REFRESH_MS);
      timer.unref();
    },

    stop() {
      clearInterval(timer);
    },
  };
}

export type CustomDomainsService = ReturnType<typeof createCustomDomains>;
