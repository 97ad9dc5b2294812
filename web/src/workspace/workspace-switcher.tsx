import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import type { Workspace } from '../api/types';
import { NewWorkspaceDialog } from './new-workspace-dialog';

/**
 * Switches between the writer's workspaces. An organisation's Super Admin (superadmin in
 * its workspaces) also has a "New workspace" button beside it.
 */
export function WorkspaceSwitcher({ workspaces, current }: { workspaces: Workspace[]; current: string }) {
  const navigate = useNavigate();
  const id = useId();
  const [creating, setCreating] = useState(false);
  const canCreate = workspaces.some((w) => w.role === 'superadmin');
  return (
    <div className="switcher">
      <label htmlFor={id} className="visually-hidden">
        Workspace
      </label>
      <select id={id} value={current} onChange={(e) => navigate(`/w/${e.target.value}`)}>
        {workspaces.map((w) => (
          <option key={w.id} value={w.slug}>
            {w.name}
          </option>
        ))}
      </select>
      {canCreate && (
        <button
          type="button"
          className="button ghost icon-button"
          aria-label="New workspace"
          title="New workspace"
          onClick={() => setCreating(true)}
        >
          +
        </button>
      )}
      {creating && (
        <NewWorkspaceDialog
          onCreated={(slug) => {
            setCreating(false);
            navigate(`/w/${slug}`);
          }}
          onClose={() => setCreating(false)}
        />
      )}
    </div>
  );
}
