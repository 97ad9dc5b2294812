import { useRef, useState } from 'react';
import { canEdit, type Role } from '../api/types';
import '../styles/history.css';
import { HistoryPanel } from './history-panel';

const PANEL_ID = 'history-panel';

interface PageHistoryProps {
  workspaceId: string;
  path: string;
  role: Role;
  /** The content_hash the editor last saved or loaded, sent with a restore. */
  currentHash: () => string | undefined;
  /** Called after a restore, so the editor loads the restored text. */
  onRestored: () => void;
}

/** The page header's "History" toggle and the panel it opens beside the editor. */
export function PageHistory({ workspaceId, path, role, currentHash, onRestored }: PageHistoryProps) {
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  const show = (next: boolean) => {
    setOpen(next);
    // Focus follows: to the panel's heading when it opens, back to the toggle when it closes.
    requestAnimationFrame(() => (next ? heading.current : toggle.current)?.focus());
  };

  return (
    <>
      <button
        ref={toggle}
        type="button"
        className="button small"
        aria-expanded={open}
        aria-controls={open ? PANEL_ID : undefined}
        onClick={() => show(!open)}
      >
        History
      </button>
      {open && (
        <HistoryPanel
          id={PANEL_ID}
          headingRef={heading}
          workspaceId={workspaceId}
          path={path}
          mayRestore={canEdit(role)}
          currentHash={currentHash}
          onRestored={onRestored}
          onClose={() => show(false)}
        />
      )}
    </>
  );
}
