import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { api } from '../api/client';
import { useMe } from '../api/queries';
import type { Member } from '../../../src/contract/members';
import { ROLE_NAMES, type List, type Role, type Workspace } from '../api/types';
import { ConfirmButton } from '../ui/confirm-button';
import { FormError } from '../ui/form-error';
import { RANKED_ROLES, roleRank } from './role-select';
import { Loading } from '../ui/loading';
import { workspaceKeys } from '../api/query-keys';

/**
 * The members with their roles (GET …/admin/members): change a role, remove a member. The
 * organization's last Super Admin can be neither demoted nor removed, and the screen says
 * so beside them instead of offering controls the API would refuse.
 */
export function MembersSection({ workspace }: { workspace: Workspace }) {
  const url = `/api/v1/workspaces/${workspace.id}/admin/members`;
  const members = useQuery({
    queryKey: workspaceKeys.members(workspace.id),
    queryFn: () => api<List<Member>>('GET', `${url}?limit=100`).then((r) => r.data),
  });
  if (members.isPending) return <Loading label="Loading the members…" />;
  if (members.isError) return <FormError error={members.error} />;
  const superAdmins = members.data.filter((m) => m.role === 'superadmin').length;
  return (
    <section className="account-section" aria-label="Members">
      <ul className="item-list">
        {members.data.map((member) => (
          <MemberRow
            key={member.user_id}
            workspace={workspace}
            member={member}
            lastSuperAdmin={member.role === 'superadmin' && superAdmins === 1}
          />
        ))}
      </ul>
    </section>
  );
}

interface MemberRowProps {
  workspace: Workspace;
  member: Member;
  lastSuperAdmin: boolean;
}

function MemberRow({ workspace, member, lastSuperAdmin }: MemberRowProps) {
  const queryClient = useQueryClient();
  const me = useMe();
  const roleId = useId();
  const base = `/api/v1/workspaces/${workspace.id}/admin/members/${member.user_id}`;
  const refresh = () => queryClient.invalidateQueries({ queryKey: workspaceKeys.members(workspace.id) });
  const changeRole = useMutation({
    mutationFn: (role: Role) => api<Member>('PUT', `${base}/role`, { role }),
    onSettled: refresh,
  });
  const remove = useMutation({ mutationFn: () => api<void>('DELETE', base), onSuccess: refresh });
  const mine = roleRank(workspace.role);
  const manageable = !lastSuperAdmin && roleRank(member.role) <= mine;
  const isMe = me.data?.id === member.user_id;
  return (
    <li className="item">
      <div className="item-text">
        <strong>
          {member.name}
          {isMe && ' (you)'}
        </strong>
        <span className="hint">
          {member.email} · @{member.handle}
        </span>
        {lastSuperAdmin && (
          <span className="hint">The last Super Admin: promote someone else before changing this role.</span>
        )}
      </div>
      <div className="item-actions">
        <label htmlFor={roleId} className="visually-hidden">
          Role of {member.name}
        </label>
        <select
          id={roleId}
          value={member.role}
          disabled={!manageable || changeRole.isPending}
          onChange={(e) => changeRole.mutate(e.target.value as Role)}
        >
          {RANKED_ROLES.filter((role) => roleRank(role) <= mine || role === member.role).map((role) => (
            <option key={role} value={role}>
              {ROLE_NAMES[role]}
            </option>
          ))}
        </select>
        {manageable && (
          <ConfirmButton
            small
            label="Remove…"
            confirmLabel={`Remove ${member.name}`}
            busy={remove.isPending}
            onConfirm={() => remove.mutate()}
          />
        )}
      </div>
      <FormError error={changeRole.error ?? remove.error} />
    </li>
  );
}
