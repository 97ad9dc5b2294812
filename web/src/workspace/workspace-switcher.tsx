import { useId } from 'react';
import { useNavigate } from 'react-router';
import type { Workspace } from '../api/types';

/** Switches between the workspaces the writer belongs to. */
export function WorkspaceSwitcher({ workspaces, current }: { workspaces: Workspace[]; current: string }) {
  const navigate = useNavigate();
  const id = useId();
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
    </div>
  );
}
