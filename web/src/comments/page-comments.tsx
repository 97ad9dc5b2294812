import { useEffect, useRef, useState } from 'react';
import { useMe } from '../api/queries';
import { canComment, type Role } from '../api/types';
import '../styles/comments.css';
import { usePeople, useThreads } from './comments-api';
import { CommentsPanel } from './comments-panel';

const OPEN_KEY = 'folio.comments-open';
const PANEL_ID = 'comments-panel';

/**
 * The page header's "Comments" toggle and the panel it opens. Whether the
 * panel is open is kept for the tab, so it stays open from page to page.
 */
export function PageComments({ slug, path, role }: { slug: string; path: string; role: Role }) {
  const [open, setOpen] = useState(() => sessionStorage.getItem(OPEN_KEY) === '1');
  const toggle = useRef<HTMLButtonElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const mayComment = canComment(role);
  const me = useMe();
  const threads = useThreads(slug, path);
  const people = usePeople(slug, open && mayComment);
  const openCount = threads.data?.filter((t) => !t.resolved).length ?? 0;

  useEffect(() => {
    sessionStorage.setItem(OPEN_KEY, open ? '1' : '0');
  }, [open]);

  const show = (next: boolean) => {
    setOpen(next);
    // Focus follows: to the comment box (or the heading, for readers) when the panel opens,
    // back to the toggle when it closes.
    requestAnimationFrame(() => {
      const box = document.getElementById(PANEL_ID)?.querySelector('textarea');
      (next ? (box ?? heading.current) : toggle.current)?.focus();
    });
  };

  return (
    <>
      <button
        ref={toggle}
        type="button"
        className="button small comments-toggle"
        aria-expanded={open}
        aria-controls={open ? PANEL_ID : undefined}
        onClick={() => show(!open)}
      >
        Comments
        {openCount > 0 && (
          <span className="comments-count">
            {openCount}
            <span className="visually-hidden"> open</span>
          </span>
        )}
      </button>
      {open && (
        <CommentsPanel
          id={PANEL_ID}
          headingRef={heading}
          threads={threads}
          context={{ slug, path, role, me: me.data?.id, mayComment, people: people.data ?? [] }}
          onClose={() => show(false)}
        />
      )}
    </>
  );
}
