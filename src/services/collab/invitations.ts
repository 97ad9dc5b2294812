import type { Kysely } from 'kysely';
import { ulid } from 'ulid';
import { z } from 'zod';
import type { Actor } from '../../domain/actor.js';
import { atLeast, CAN, requireScope, type Role } from '../../domain/policy.js';
import { conflict, forbidden, invalid, notFound } from '../../errors.js';
import type { Store } from '../../store/database.js';
import * as invitationsTable from '../../store/repositories/invitations.js';
import { findUserByEmail, findUserById } from '../../store/repositories/users.js';
import type { Database } from '../../store/schema.js';
import type { AccessService } from '../access.js';
import { normalizeEmail } from '../identity/accounts.js';
import { actorIdOf, record } from '../activity.js';
import type { Clock } from '../../lib/clock.js';
import type { Outbox } from '../operations/mail.js';
import { effectiveRole, grantMembership, roleInput } from './members.js';
import type { PlanLimits } from './plan-limits.js';
import { randomToken, safeEqual, sha256Hex } from '../../lib/secrets.js';

/** Invitations live 7 days. */
export const INVITATION_MS = 7 * 24 * 3600 * 1000;

export const createInvitationInput = z.object({
  email: z.string().trim().max(320).pipe(z.email('Must be a valid email address')),
  role: roleInput,
});

export const acceptInvitationInput = z.object({
  token: z.string({ error: 'token is required' }).min(1, 'token is required').max(200),
});

/** The API's invitation record; `token` only on creation when no mail is sent. */
export interface InvitationRecord {
  id: string;
  email: string;
  role: Role;
  expires_at: string;
  created_at: string;
  accept_url: string;
  token?: string;
}

export interface InvitationDeps {
  store: Store;
  clock: Clock;
  access: AccessService;
  outbox: Outbox;
  planLimits: PlanLimits;
  publicUrl: string;
}

/** The workspace a user joined, and with which role. */
export interface Joined {
  workspace_id: string;
  workspace: { id: string; slug: string; name: string };
  role: Role;
}

/** Spends an invitation or share link for `userId` inside the caller's transaction. */
export type JoinStep = (trx: Kysely<Database>, userId: string) => Promise<Joined>;

/** Roles that take a seat of the plan. */
export const takesSeat = (role: Role): boolean => atLeast(role, 'editor');

/**
 * Email invitations to a workspace. The token is random, shown once (in the
 * mail, or to the admin when no mail is configured) and stored as SHA-256 only.
 */
export function createInvitations(deps: InvitationDeps) {
  const db = deps.store.db;
  // The web app's invitation page: it signs the invitee in or up, then accepts.
  const acceptUrl = (token?: string) =>
    `${deps.publicUrl}/invite${token ? `/${encodeURIComponent(token)}` : ''}`;

  const present = (row: {
    id: string;
    email: string;
    role: string;
    expires_at: string;
    created_at: string;
  }): InvitationRecord => ({
    id: row.id,
    email: row.email,
    role: row.role as Role,
    expires_at: row.expires_at,
    created_at: row.created_at,
    accept_url: acceptUrl(),
  });

  return {
    /** Pending invitations: neither accepted, revoked nor expired. Newest first. */
    async list(actor: Actor, workspaceId: string, input: { limit: number; cursor?: string | undefined }) {
      const { workspace } = await deps.access.require(actor, workspaceId, CAN.readAdmin);
      const rows = await invitationsTable.listPendingInvitations(db, workspace.id, {
        now: deps.clock.now().toISOString(),
        before: input.cursor,
        limit: input.limit + 1,
      });
      const data = rows.slice(0, input.limit).map(present);
      return { data, next_cursor: rows.length > input.limit ? (data[data.length - 1]?.id ?? null) : null };
    },

    /**
     * Invites an address with a role no higher than the inviter's own (403).
     * A newer invitation to the same address replaces a pending one. With mail
     * configured the link goes out through the outbox in the same transaction;
     * without, the token is answered once so the admin can pass the link on.
     */
    async create(
      actor: Actor,
      workspaceId: string,
      input: z.infer<typeof createInvitationInput>,
    ): Promise<InvitationRecord> {
      const { workspace, role: inviterRole } = await deps.access.require(actor, workspaceId, CAN.administer);
      if (!atLeast(inviterRole, input.role)) {
        throw forbidden(`You cannot invite with a role above your own (${inviterRole})`);
      }
      const email = normalizeEmail(input.email);
      if (takesSeat(input.role)) await deps.planLimits.requireSeat(workspace.org_id, input.role, { email });
      const existing = await findUserByEmail(db, email);
      if (existing) {
        const current = await effectiveRole(db, workspace, existing.id);
        if (current && atLeast(current.role, input.role)) {
          throw conflict(`${email} is already a member with the ${current.role} role`);
        }
      }
      const token = randomToken(32);
      const now = deps.clock.now();
      const row = {
        id: ulid(),
        workspace_id: workspace.id,
        email,
        role: input.role,
        token_hash: sha256Hex(token),
        invited_by: actorIdOf(actor),
        expires_at: new Date(now.getTime() + INVITATION_MS).toISOString(),
        accepted_at: null,
        accepted_by: null,
        revoked_at: null,
        created_at: now.toISOString(),
      };
      const inviter = await findUserById(db, actor.userId);
      await db.transaction().execute(async (trx) => {
        await invitationsTable.revokeOpenInvitationsOf(trx, workspace.id, email, row.created_at);
        await invitationsTable.insertInvitation(trx, row);
        await deps.outbox.enqueue(
          {
            to: email,
            subject: `You are invited to ${workspace.name} on Folio`,
            text: [
              `${inviter?.name ?? 'Someone'} invited you to the workspace "${workspace.name}" as ${input.role}.`,
              '',
              'To accept, sign in (or create an account) with this address and open:',
              '',
              acceptUrl(token),
              '',
              'The invitation works once and expires in 7 days.',
            ].join('\n'),
          },
          trx,
        );
      });
      deps.outbox.wake();
      const created = present(row);
      return deps.outbox.enabled ? created : { ...created, accept_url: acceptUrl(token), token };
    },

    /** Revokes a pending invitation; its link stops working at once. */
    async revoke(actor: Actor, workspaceId: string, invitationId: string): Promise<void> {
      const { workspace } = await deps.access.require(actor, workspaceId, CAN.administerDelete);
      const revoked = await invitationsTable.revokeInvitation(
        db,
        workspace.id,
        invitationId,
        deps.clock.now().toISOString(),
      );
      if (!revoked) throw notFound('Invitation');
    },

    /**
     * Accepts an invitation as the signed-in user, whose email must be the
     * invited one (403). Works once; an expired, used or revoked one is 400.
     * The user keeps a higher role they already hold.
     */
    async accept(actor: Actor, input: z.infer<typeof acceptInvitationInput>) {
      requireScope(actor, 'write');
      const user = await findUserById(db, actor.userId);
      if (!user) throw forbidden('This invitation was sent to another email address');
      const join = await prepareJoin(input.token, user.email, 'token');
      return db.transaction().execute((trx) => join(trx, user.id));
    },

    prepareJoin,
  };

  /**
   * Checks an invitation for the holder of `email` (403 for another address;
   * 400 on `field` when unknown, used, revoked or expired) and answers the
   * step that spends it inside the caller's transaction: once only, granting
   * its role (a higher one the user holds stays).
   */
  async function prepareJoin(token: string, email: string, field: string): Promise<JoinStep> {
    const hash = sha256Hex(token);
    const row = await invitationsTable.findInvitationByTokenHash(db, hash);
    // The lookup is by hash; the constant-time comparison makes the check explicit.
    if (!row || !safeEqual(row.token_hash, hash)) throw invalid(field, 'Invalid or expired invitation');
    if (normalizeEmail(email) !== row.email) {
      throw forbidden('This invitation was sent to another email address');
    }
    const now = deps.clock.now().toISOString();
    if (row.accepted_at || row.revoked_at) throw invalid(field, 'This invitation is no longer valid');
    if (row.expires_at <= now) throw invalid(field, 'This invitation has expired');
    const workspace = await deps.access.findWorkspace(row.workspace_id);
    if (!workspace) throw invalid(field, 'The workspace of this invitation no longer exists');
    const role = row.role as Role;
    return async (trx, userId) => {
      // One use: only the request that flips accepted_at goes on.
      const claimed = await invitationsTable.acceptInvitation(trx, row.id, userId, now);
      if (!claimed) throw invalid(field, 'This invitation is no longer valid');
      const result = await grantMembership(trx, workspace, userId, role, now);
      await record(trx, {
        workspaceId: workspace.id,
        action: 'member_added',
        actorId: userId,
        details: { user_id: userId, role: result.role, via: 'invitation', invitation_id: row.id },
        at: now,
      });
      return {
        workspace_id: workspace.id,
        workspace: { id: workspace.id, slug: workspace.slug, name: workspace.name },
        role: result.role,
      };
    };
  }
}

export type InvitationsService = ReturnType<typeof createInvitations>;
