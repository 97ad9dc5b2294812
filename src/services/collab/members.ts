import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Actor } from '../../domain/actor.js';
import type { EventBus } from '../../events/bus.js';
import { atLeast, CAN, isRole, ROLES, type Role } from '../../domain/policy.js';
import { AppError, forbidden, notFound } from '../../errors.js';
import type { Store } from '../../store/database.js';
import {
  countOrgSuperadmins,
  listOrgMemberUsers,
  lockOrg,
  updateOrgMemberRole,
  upsertOrgMember,
} from '../../store/repositories/orgs.js';
import {
  deleteWorkspaceMember,
  findStoredWorkspaceRole,
  listWorkspaceMemberUsers,
  upsertWorkspaceMember,
} from '../../store/repositories/workspace-members.js';
import type { Database, WorkspaceRow } from '../../store/schema.js';
import type { AccessService } from '../access.js';
import { actorIdOf, record } from '../activity.js';
import type { Clock } from '../../lib/clock.js';
import type { PlanLimits } from './plan-limits.js';

export const roleInput = z.enum(ROLES, { error: `role must be one of ${ROLES.join(', ')}` });

export const changeRoleInput = z.object({ role: roleInput });

export const listInput = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().max(100).optional(),
});

/** The API's member record. */
/** Offset paging of the older layouts: `limit` (default 100) from `offset`. */
export const offsetListInput = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

export interface MemberRecord {
  user_id: string;
  name: string;
  email: string;
  handle: string;
  role: Role;
  joined_at: string;
}

/** The role org_members keeps for someone who is no longer the organization's Super Admin. */
const ORG_MEMBER = 'member';

/**
 * A user's role in a workspace as access.ts computes it (an organization's
 * Super Admin is `superadmin` everywhere in it), read inside `db` so callers
 * can ask within their transaction.
 */
export async function effectiveRole(
  db: Kysely<Database>,
  workspace: WorkspaceRow,
  userId: string,
): Promise<{ role: Role; orgSuperadmin: boolean } | null> {
  const stored = await findStoredWorkspaceRole(db, workspace, userId);
  return stored && isRole(stored.role) ? { role: stored.role, orgSuperadmin: stored.viaOrg } : null;
}

/**
 * Makes `userId` a member of the workspace with `role`, unless they already
 * hold that role or a higher one (then nothing changes). `superadmin` is an
 * organization role, so granting it writes org_members.
 * Answers the role the user ends up with and whether it changed.
 */
export async function grantMembership(
  trx: Kysely<Database>,
  workspace: WorkspaceRow,
  userId: string,
  role: Role,
  now: string,
): Promise<{ role: Role; changed: boolean }> {
  const current = await effectiveRole(trx, workspace, userId);
  if (current && atLeast(current.role, role)) return { role: current.role, changed: false };
  if (role === 'superadmin') {
    await upsertOrgMember(trx, {
      org_id: workspace.org_id,
      user_id: userId,
      role: 'superadmin',
      created_at: now,
    });
  } else {
    await upsertWorkspaceMember(trx, { workspace_id: workspace.id, user_id: userId, role, created_at: now });
  }
  return { role, changed: true };
}

/** Workspace members and their roles. */
export function createMembers(deps: {
  store: Store;
  clock: Clock;
  access: AccessService;
  events: EventBus;
  /** The Cloud edition's seat limit. */
  planLimits?: Pick<PlanLimits, 'requireSeat'>;
}) {
  const db = deps.store.db;

  /** Everyone with a role in the workspace: its members plus the organization's Super Admins. */
  async function allMembers(workspace: WorkspaceRow, trx: Kysely<Database> = db): Promise<MemberRecord[]> {
    const supers = await listOrgMemberUsers(trx, workspace.org_id, { role: 'superadmin' });
    const members = await listWorkspaceMemberUsers(trx, workspace.id);
    const byId = new Map<string, MemberRecord>();
    for (const m of members) {
      if (!isRole(m.role)) continue;
      byId.set(m.user_id, {
        user_id: m.user_id,
        name: m.name,
        email: m.email,
        handle: m.handle,
        role: m.role,
        joined_at: m.joined_at,
      });
    }
    for (const s of supers) {
      const joined = byId.get(s.user_id)?.joined_at ?? s.joined_at;
      byId.set(s.user_id, {
        user_id: s.user_id,
        name: s.name,
        email: s.email,
        handle: s.handle,
        role: 'superadmin',
        joined_at: joined < s.joined_at ? joined : s.joined_at,
      });
    }
    // User ids are ULIDs, so this is registration order and a stable cursor.
    return [...byId.values()].sort((a, b) => (a.user_id < b.user_id ? -1 : a.user_id > b.user_id ? 1 : 0));
  }

  return {
    allMembers,

    /** One page of members, ordered by user id; `next_cursor` is the last id shown. */
    async list(actor: Actor, workspaceId: string, input: z.infer<typeof listInput>) {
      const { workspace } = await deps.access.require(actor, workspaceId, CAN.readAdmin);
      const all = (await allMembers(workspace)).filter((m) => !input.cursor || m.user_id > input.cursor);
      const data = all.slice(0, input.limit);
      const more = all.length > input.limit;
      return { data, next_cursor: more ? (data[data.length - 1]?.user_id ?? null) : null };
    },

    /** Layout C's member list: one page by offset, with the total; admins only. */
    async listByOffset(actor: Actor, workspaceId: string, input: z.infer<typeof offsetListInput>) {
      const { workspace } = await deps.access.require(actor, workspaceId, CAN.readAdmin);
      const all = await allMembers(workspace);
      const members = all.slice(input.offset, input.offset + input.limit);
      return { members, total: all.length, limit: input.limit, offset: input.offset };
    },

    /**
     * Changes a member's role. The caller can neither grant a role above their
     * own nor touch a member who outranks them. Demoting a Super Admin demotes
     * them in the whole organization, and the organization's last Super Admin
     * cannot be demoted (409), so an organization is never left without one.
     */
    async changeRole(
      actor: Actor,
      workspaceId: string,
      userId: string,
      input: z.infer<typeof changeRoleInput>,
    ): Promise<MemberRecord> {
      const { workspace, role: callerRole } = await deps.access.require(actor, workspaceId, CAN.administer);
      const to = input.role;
      // A promotion to editor or above takes a plan seat (asked outside the transaction,
      // whose connection SQLite would otherwise wait on).
      const before = await effectiveRole(db, workspace, userId);
      if (before && atLeast(to, 'editor') && !atLeast(before.role, 'editor')) {
        await deps.planLimits?.requireSeat(workspace.org_id, to, { userId });
      }
      const updated = await db.transaction().execute(async (trx) => {
        // Touching the organization row takes a write lock on it (PostgreSQL) or the
        // database (SQLite), so two Super Admins demoting each other at once cannot
        // both see "another Super Admin remains" and leave none.
        await lockOrg(trx, workspace.org_id);
        const current = await effectiveRole(trx, workspace, userId);
        if (!current) throw notFound('Member');
        if (!atLeast(callerRole, to))
          throw forbidden(`You cannot grant a role above your own (${callerRole})`);
        if (!atLeast(callerRole, current.role)) {
          throw forbidden(`You cannot change the role of a member above your own role (${callerRole})`);
        }
        if (current.role === to) return null;
        const now = deps.clock.now().toISOString();
        if (current.orgSuperadmin) {
          const supers = await countOrgSuperadmins(trx, workspace.org_id);
          if (supers <= 1) {
            throw new AppError(
              'CONFLICT',
              'The last Super Admin of the organization cannot be demoted; promote someone else first',
              { details: { field: 'role' } },
            );
          }
          await updateOrgMemberRole(trx, workspace.org_id, userId, ORG_MEMBER);
        }
        if (to === 'superadmin') {
          await grantMembership(trx, workspace, userId, to, now);
        } else {
          await upsertWorkspaceMember(trx, {
            workspace_id: workspace.id,
            user_id: userId,
            role: to,
            created_at: now,
          });
        }
        await record(trx, {
          workspaceId: workspace.id,
          action: 'member_role_changed',
          actorId: actorIdOf(actor),
          details: { user_id: userId, from: current.role, to },
          at: now,
        });
        return (await allMembers(workspace, trx)).find((m) => m.user_id === userId) ?? null;
      });
      const member = updated ?? (await allMembers(workspace)).find((m) => m.user_id === userId);
      if (!member) throw notFound('Member');
      return member;
    },

    /**
     * Removes a member from the workspace: only their workspace role goes.
     * Their comments stay, and so do the invitations and share links they
     * created or were sent. Access is read from the database on every request,
     * so their next request is refused; the WebSocket hub hears
     * `member-removed` and ends their subscriptions. An organization Super
     * Admin holds the role through the organization, not the workspace, so
     * they cannot be removed here (409, like demoting the last one); they are
     * demoted first. The caller cannot remove a member who outranks them.
     */
    async remove(actor: Actor, workspaceId: string, userId: string): Promise<void> {
      const { workspace, role: callerRole } = await deps.access.require(
        actor,
        workspaceId,
        CAN.administerDelete,
      );
      await db.transaction().execute(async (trx) => {
        const current = await effectiveRole(trx, workspace, userId);
        if (!current) throw notFound('Member');
        if (!atLeast(callerRole, current.role)) {
          throw forbidden(`You cannot remove a member above your own role (${callerRole})`);
        }
        if (current.orgSuperadmin) {
          const supers = await countOrgSuperadmins(trx, workspace.org_id);
          throw new AppError(
            'CONFLICT',
            supers <= 1
              ? 'The last Super Admin of the organization cannot be removed'
              : 'A Super Admin belongs to every workspace of the organization; change their role before removing them',
            { details: { field: 'user_id' } },
          );
        }
        // Someone else removed them in the meantime.
        if (!(await deleteWorkspaceMember(trx, workspace.id, userId))) throw notFound('Member');
        await record(trx, {
          workspaceId: workspace.id,
          action: 'member_removed',
          actorId: actorIdOf(actor),
          details: { user_id: userId, role: current.role },
          at: deps.clock.now().toISOString(),
        });
      });
      deps.events.emit('member-removed', {
        workspace_id: workspace.id,
        user_id: userId,
        actor: actorIdOf(actor),
      });
    },
  };
}
