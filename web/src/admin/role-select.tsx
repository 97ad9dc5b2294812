import { useId } from 'react';
import { ROLE_NAMES, type Role } from '../api/types';

/** The roles in rank order; nobody grants a role above their own (the API refuses it too). */
export const RANKED_ROLES: readonly Role[] = ['viewer', 'commenter', 'editor', 'admin', 'superadmin'];
export const roleRank = (role: Role) => RANKED_ROLES.indexOf(role);

/** The roles `granter` may give: theirs and those below it. */
export const grantableRoles = (granter: Role) => RANKED_ROLES.filter((r) => roleRank(r) <= roleRank(granter));

/** A labelled role choice for a form (`name="role"`), offering only roles the granter may give. */
export function RoleField({ granter, defaultValue }: { granter: Role; defaultValue: Role }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>Role</label>
      <select id={id} name="role" defaultValue={defaultValue}>
        {grantableRoles(granter).map((role) => (
          <option key={role} value={role}>
            {ROLE_NAMES[role]}
          </option>
        ))}
      </select>
    </div>
  );
}
