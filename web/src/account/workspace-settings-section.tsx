import { Link } from 'react-router';
import { useWorkspaces } from '../api/queries';
import { canAdminister, ROLE_NAMES } from '../api/types';

/**
 * Account → Workspace settings: the way from the account (and from `/settings`) to the
 * administration of each workspace the user administers; hidden when there is none.
 */
export function WorkspaceSettingsSection() {
  const workspaces = useWorkspaces();
  const administered = (workspaces.data ?? []).filter((w) => canAdminister(w.role));
  if (administered.length === 0) return null;
  return (
    <section className="account-section" aria-labelledby="workspace-settings-heading">
      <h2 id="workspace-settings-heading">Workspace settings</h2>
      <p className="hint">
        Members, publishing, git and the other settings of the workspaces you administer.
      </p>
      <ul className="item-list" aria-label="Workspaces you administer">
        {administered.map((workspace) => (
          <li key={workspace.id} className="item">
            <div className="item-text">
              <Link to={`/settings/w/${encodeURIComponent(workspace.slug)}`}>{workspace.name} settings</Link>
              <span className="hint">
                {workspace.slug} · {ROLE_NAMES[workspace.role]}
              </span>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
