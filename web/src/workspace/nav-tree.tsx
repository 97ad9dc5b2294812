import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { entryCount, navRows, sectionKeys, sectionsAbove, type NavEntry, type NavRow } from './nav-model';
import { treeKeyActions } from '../ui/tree-keys';

const ROW_HEIGHT = 30;
/** Up to this many entries every section starts open, as the published site does. */
const OPEN_ALL_UP_TO = 40;

interface NavTreeProps {
  entries: readonly NavEntry[];
  /** The key of the "Not in navigation" group, which starts closed. */
  restKey: string | null;
  activePath: string | null;
  onOpen: (path: string) => void;
}

/**
 * The workspace's pages in its docs tool's navigation, as a WAI-ARIA tree named "Pages"
 * with the page tree's keys: arrows, Home and End move, Right and Left expand and
 * collapse, Enter opens. A section with its own page opens it on Enter or a click on its
 * title, and folds with its toggle, which sits where a folder's does. An outside link
 * opens in a new tab.
 */
export function NavTree({ entries, restKey, activePath, onOpen }: NavTreeProps) {
  const [expanded, setExpanded] = useState<Set<string>>(() => {
    const open = new Set(sectionsAbove(entries, activePath));
    if (entryCount(entries.filter((_, i) => String(i) !== restKey)) <= OPEN_ALL_UP_TO)
      for (const key of sectionKeys(entries)) if (key !== restKey) open.add(key);
    return open;
  });
  const rows = useMemo(() => navRows(entries, expanded), [entries, expanded]);
  const [focusKey, setFocusKey] = useState<string | null>(
    () => rows.find((r) => pathOf(r.entry) === activePath)?.key ?? null,
  );
  const scroller = useRef<HTMLDivElement>(null);
  const wantFocus = useRef(false);

  // Opening a page elsewhere (a search result) unfolds the sections above it.
  const [shownPath, setShownPath] = useState(activePath);
  if (activePath !== shownPath) {
    setShownPath(activePath);
    const missing = sectionsAbove(entries, activePath).filter((k) => !expanded.has(k));
    if (missing.length) setExpanded(new Set([...expanded, ...missing]));
  }

  const focusIndex = Math.max(
    0,
    rows.findIndex((r) => r.key === focusKey),
  );
  useEffect(() => {
    if (!wantFocus.current) return;
    scroller.current?.querySelector<HTMLElement>(`[data-index="${focusIndex}"]`)?.focus();
    wantFocus.current = false;
  });

  const toggle = (key: string, open?: boolean) =>
    setExpanded((prev) => {
      const next = new Set(prev);
      if (open ?? !prev.has(key)) next.add(key);
      else next.delete(key);
      return next;
    });
  const moveTo = (index: number) => {
    const row = rows[Math.max(0, Math.min(rows.length - 1, index))];
    if (!row) return;
    wantFocus.current = true;
    setFocusKey(row.key);
  };
  const activate = (row: NavRow) => {
    const { entry } = row;
    if (entry.type === 'link') window.open(entry.href, '_blank', 'noopener');
    else if (entry.path) onOpen(entry.path);
    else toggle(row.key);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const row = rows[focusIndex];
    if (!row) return;
    const isSection = row.entry.type === 'section';
    const open = expanded.has(row.key);
    const keys = treeKeyActions({ rows, focusIndex, isBranch: isSection, open, moveTo, toggle, activate });
    const action = keys[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  };

  return (
    <div className="tree-scroller" ref={scroller}>
      <div
        role="tree"
        aria-label="Pages"
        className="tree"
        style={{ height: rows.length * ROW_HEIGHT }}
        onKeyDown={onKeyDown}
      >
        {rows.map((row, index) => {
          const { entry } = row;
          const isSection = entry.type === 'section';
          const open = expanded.has(row.key);
          const selected = pathOf(entry) !== null && pathOf(entry) === activePath;
          return (
            <div
              key={row.key}
              role="treeitem"
              data-index={index}
              aria-level={row.level}
              aria-posinset={row.posinset}
              aria-setsize={row.setsize}
              aria-expanded={isSection ? open : undefined}
              aria-selected={selected}
              aria-current={selected ? 'page' : undefined}
              tabIndex={index === focusIndex ? 0 : -1}
              className={`tree-row${selected ? ' is-active' : ''}${isSection ? ' is-section' : ''}`}
              style={{ top: index * ROW_HEIGHT, paddingLeft: 8 + (row.level - 1) * 16 }}
              onClick={() => {
                setFocusKey(row.key);
                activate(row);
              }}
              onFocus={() => setFocusKey(row.key)}
            >
              <span
                className={`tree-icon ${isSection ? 'folder' : 'page'}`}
                aria-hidden="true"
                onClick={
                  isSection && entry.path
                    ? (event) => {
                        // The toggle folds a section that has a page; its title opens the page.
                        event.stopPropagation();
                        setFocusKey(row.key);
                        toggle(row.key);
                      }
                    : undefined
                }
              >
                {isSection ? (open ? '▾' : '▸') : ''}
              </span>
              <span className="tree-label">
                {entry.title}
                {entry.type === 'link' && <span className="visually-hidden"> (opens in a new tab)</span>}
              </span>
              {entry.type === 'link' && (
                <span className="tree-external" aria-hidden="true">
                  ↗
                </span>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}

function pathOf(entry: NavEntry): string | null {
  return entry.type === 'link' ? null : entry.path;
}
