import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { entryCount, navRows, sectionKeys, sectionsAbove, type NavEntry, type NavRow } from './nav-model';
import { treeKeyActions } from '../ui/tree-keys';
import { TREE_ROW_HEIGHT as ROW_HEIGHT, TreeItemRow } from '../ui/tree-row';

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
          return (
            <TreeItemRow
              key={row.key}
              index={index}
              level={row.level}
              posinset={row.posinset}
              setsize={row.setsize}
              expanded={isSection ? expanded.has(row.key) : undefined}
              selected={pathOf(entry) !== null && pathOf(entry) === activePath}
              tabStop={index === focusIndex}
              label={entry.title}
              external={entry.type === 'link'}
              modifiers={[isSection && 'is-section']}
              onFocusRow={() => setFocusKey(row.key)}
              onActivate={() => activate(row)}
              // A section with a page opens it from its title and folds with its toggle.
              onToggle={isSection && entry.path ? () => toggle(row.key) : undefined}
            />
          );
        })}
      </div>
    </div>
  );
}

function pathOf(entry: NavEntry): string | null {
  return entry.type === 'link' ? null : entry.path;
}
