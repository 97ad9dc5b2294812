import { useState } from 'react';

/** What the sidebar lists: the folders, or the navigation of the workspace's docs tool. */
export type SidebarView = 'folders' | 'tool';

const storageKey = (slug: string) => `folio.sidebar-view.${slug}`;

/** The writer's choice for this workspace, kept in the browser; the tool's navigation by default. */
export function useSidebarView(slug: string): [SidebarView, (view: SidebarView) => void] {
  const read = (): SidebarView => {
    try {
      return localStorage.getItem(storageKey(slug)) === 'folders' ? 'folders' : 'tool';
    } catch {
      return 'tool';
    }
  };
  const [state, setState] = useState(() => ({ slug, view: read() }));
  // Another workspace opened in the same screen reads its own choice.
  const view = state.slug === slug ? state.view : read();
  const set = (next: SidebarView) => {
    setState({ slug, view: next });
    try {
      localStorage.setItem(storageKey(slug), next);
    } catch {
      // Storage refused (private mode): the choice lasts while the screen is open.
    }
  };
  return [view, set];
}

interface SidebarViewToggleProps {
  /** `MkDocs`, `Docusaurus`, `GitBook`. */
  tool: string;
  /** The file the navigation is read from. */
  file: string | null;
  view: SidebarView;
  onChange: (view: SidebarView) => void;
}

/** "Folders | MkDocs navigation": two toggle buttons, one pressed. */
export function SidebarViewToggle({ tool, file, view, onChange }: SidebarViewToggleProps) {
  return (
    <div className="sidebar-view">
      <div className="sidebar-view-buttons" role="group" aria-label="Order of the pages">
        <button type="button" aria-pressed={view === 'folders'} onClick={() => onChange('folders')}>
          Folders
        </button>
        <button type="button" aria-pressed={view === 'tool'} onClick={() => onChange('tool')}>
          {tool} navigation
        </button>
      </div>
      {view === 'tool' && file && <p className="sidebar-view-note">In the order of {file}</p>}
    </div>
  );
}
