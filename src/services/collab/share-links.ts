import { ulid } from 'ulid';
import { z } from 'zod';
import type { Actor } from '../../domain/actor.js';
import { atLeast, CAN, requireScope, type Role } from '../../domain/policy.js';
import { AppError, forbidden, invalid, notFound } from '../../errors.js';
import type { Store } from '../../store/database.js';
import * as shareLinksTable from '../../store/repositories/share-links.js';
import type { WorkspaceRow } from '../../store/schema.js';
import type { AccessService } from '../access.js';
import { actorIdOf, record } from '../activity.js';
import type { Clock } from '../../lib/clock.js';
import { type Joined, type JoinStep, takesSeat } from './invitations.js';
import { effectiveRole, grantMembership, roleInput } from './members.js';
import type { PlanLimits, SeatCandidate } from './plan-limits.js';
import { randomToken, safeEqual, sha256Hex } from '../../lib/secrets.js';

export const createShareLinkInput = z.object({
  role: roleInput,
  expires_at: z.iso
    .datetime({ offset: true, error: 'expires_at must be an ISO 8601 timestamp' })
    .nullable()
    .optional(),
  max_uses: z.number().int().min(1).max(1_000_000).nullable().optional(),
});

/** A share link as admins see it; `token` and `url` only in the answer to create. */
export interface ShareLinkRecord {
  id: string;
  role: Role;
  expires_at: string | null;
  max_uses: number | null;
  uses: number;
  created_at: string;
  token?: string;
  url?: string;
}

/**
 * Links that let any signed-in user join a workspace with a fixed role. The
 * token is shown once and stored as SHA-256; uses are counted by one
 * conditional UPDATE so `max_uses` holds however many requests race.
 */
export function createShareLinks(deps: {
  store: Store;
  clock: Clock;
  access: AccessService;
  planLimits: PlanLimits;
  publicUrl: string;
}) {
  const db = deps.store.db;

  const present = (row: {
    id: string;
    role: string;
    expires_at: string | null;
    max_uses: number | null;
    uses: number;
    created_at: string;
  }): ShareLinkRecord => ({
    id: row.id,
    role: row.role as Role,
    expires_at: row.expires_at,
    max_uses: row.max_uses === null ? null : Number(row.max_uses),
    uses: Number(row.uses),
    created_at: row.created_at,
  });

  return {
    /** Links not revoked, newest first (expired and used-up ones included, so admins see why). */
    async list(actor: Actor, workspaceId: string, input: { limit: number; cursor?: string | undefined }) {
      const { workspace } = await deps.access.require(actor, workspaceId, CAN.readAdmin);
      const rows = await shareLinksTable.listActiveShareLinks(db, workspace.id, {
        before: input.cursor,
        limit: input.limit + 1,
      });
      const data = rows.slice(0, input.limit).map(present);
      return { data, next_cursor: rows.length > input.limit ? (data[data.length - 1]?.id ?? null) : null };
    },

    /** Creates a link granting `role` (never above the creator's own). */
    async create(actor: Actor, workspaceId: string, input: z.infer<typeof createShareLinkInput>) {
      const { workspace, role: creatorRole } = await deps.access.require(actor, workspaceId, CAN.administer);
      if (!atLeast(creatorRole, input.role)) {
        throw forbidden(`You cannot share a role above your own (${creatorRole})`);
      }
      const now = deps.clock.now();
      const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
      if (expiresAt && expiresAt.getTime() <= now.getTime()) {
        throw invalid('expires_at', 'expires_at must be in the future');
      }
      const token = randomToken(24);
      const row = {
        id: ulid(),
        workspace_id: workspace.id,
        token_hash: sha256Hex(token),
        role: input.role,
        expires_at: expiresAt?.toISOString() ?? null,
        max_uses: input.max_uses ?? null,
        uses: 0,
        created_by: actorIdOf(actor),
        revoked_at: null,
        created_at: now.toISOString(),
      };
      await shareLinksTable.insertShareLink(db, row);
      return { ...present(row), token, url: `${deps.publicUrl}/join/${token}` };
    },

    /** Revokes a link; joining with it stops at once. */
    async revoke(actor: Actor, workspaceId: string, linkId: string): Promise<void> {
      const { workspace } = await deps.access.require(actor, workspaceId, CAN.administerDelete);
      const revoked = await shareLinksTable.revokeShareLink(
        db,
        workspace.id,
        linkId,
        deps.clock.now().toISOString(),
      );
      if (!revoked) throw notFound('Share link');
    },

    /**
     * Joins the link's workspace as the signed-in user. Unknown or revoked
     * links are 404; expired or used-up ones 400. Someone who already holds
     * the role or a higher one stays as they are and spends no use.
     */
    async use(actor: Actor, token: string): Promise<Joined> {
      requireScope(actor, 'write');
      const { workspace, role, join } = await inspect(token, 'token');
      const current = await effectiveRole(db, workspace, actor.userId);
      if (current && atLeast(current.role, role)) return joined(workspace, current.role);
      await requireSeat(workspace, role, { userId: actor.userId });
      return db.transaction().execute((trx) => join(trx, actor.userId));
    },

    /**
     * For a registration that carries a share link: the link is checked now
     * (400 on `field` when unknown, revoked, expired or used up) and the answer
     * spends one use inside the registration's transaction.
     */
    async prepareJoin(token: string, field: string): Promise<JoinStep> {
      const { workspace, role, join } = await inspect(token, field).catch((error: unknown) => {
        throw error instanceof AppError && error.code === 'NOT_FOUND'
          ? invalid(field, 'Invalid or revoked share link')
          : error;
      });
      // A new account holds no seat yet.
      await requireSeat(workspace, role, {});
      return join;
    },
  };

  function joined(workspace: WorkspaceRow, role: Role): Joined {
    return {
      workspace_id: workspace.id,
      workspace: { id: workspace.id, slug: workspace.slug, name: workspace.name },
      role,
    };
  }

  async function requireSeat(workspace: WorkspaceRow, role: Role, candidate: SeatCandidate): Promise<void> {
    if (takesSeat(role)) await deps.planLimits.requireSeat(workspace.org_id, role, candidate);
  }

  /** Finds a usable link (404 unknown or revoked, 400 on `field` expired) and the step that spends it. */
  async function inspect(token: string, field: string) {
    const hash = sha256Hex(token);
    const link = await shareLinksTable.findShareLinkByTokenHash(db, hash);
    if (!link || !safeEqual(link.token_hash, hash) || link.revoked_at) throw notFound('Share link');
    const workspace = await deps.access.findWorkspace(link.workspace_id);
    if (!workspace) throw notFound('Share link');
    const now = deps.clock.now().toISOString();
    if (link.expires_at !== null && link.expires_at <= now) {
      throw invalid(field, 'This share link has expired');
    }
    const role = link.role as Role;
    const join: JoinStep = async (trx, userId) => {
      if (!(await shareLinksTable.spendShareLinkUse(trx, link.id, now))) {
        // Lost a race: say which limit the link hit in the meantime.
        const latest = await shareLinksTable.findShareLinkById(trx, link.id);
        if (!latest || latest.revoked_at) throw notFound('Share link');
        if (latest.expires_at !== null && latest.expires_at <= now) {
          throw invalid(field, 'This share link has expired');
        }
        throw invalid(field, 'This share link has been used the maximum number of times');
      }
      const result = await grantMembership(trx, workspace, userId, role, now);
      await record(trx, {
        workspaceId: workspace.id,
        action: 'member_added',
        actorId: userId,
        details: { user_id: userId, role: result.role, via: 'share_link', share_link_id: link.id },
        at: now,
      });
      return joined(workspace, result.role);
    };
    return { workspace, role, join };
  }
}

export type ShareLinksService = ReturnType<typeof createShareLinks>;
