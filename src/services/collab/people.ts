import type { Actor } from '../../domain/actor.js';
import type { Requirement } from '../../domain/policy.js';
import type { Store } from '../../store/database.js';
import { findUserName } from '../../store/repositories/users.js';
import type { AccessService } from '../access.js';
import type { MemberRecord } from './members.js';
import type { WorkspaceRow } from '../../store/schema.js';

/** Those who may mention others may see whom they can mention; viewers (readers via share links) may not. */
const READ_DIRECTORY: Requirement = { role: 'commenter', op: 'read' };

/** A member as other members see them: no email, no role. */
export interface PersonRecord {
  user_id: string;
  name: string;
  handle: string;
}

/**
 * Who is who in a workspace, for the people working in it rather than its
 * admins: the names and handles that `@mentions` complete and presence shows.
 */
export function createPeople(deps: {
  store: Store;
  access: AccessService;
  members: { allMembers: (workspace: WorkspaceRow) => Promise<MemberRecord[]> };
}) {
  return {
    /** Everyone with a role in the workspace, by name (one page: a workspace's members fit). */
    async directory(actor: Actor, workspaceId: string): Promise<{ data: PersonRecord[]; next_cursor: null }> {
      const { workspace } = await deps.access.require(actor, workspaceId, READ_DIRECTORY);
      const data = (await deps.members.allMembers(workspace))
        .map(({ user_id, name, handle }) => ({ user_id, name, handle }))
        .sort((a, b) => a.name.localeCompare(b.name) || a.handle.localeCompare(b.handle));
      return { data, next_cursor: null };
    },

    async nameOf(userId: string): Promise<string> {
      return (await findUserName(deps.store.db, userId)) ?? userId;
    },
  };
}
