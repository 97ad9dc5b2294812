import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { TreeNode } from '../../../src/contract/pages';
import { ancestorFolders, visibleRows, type TreeRow } from './tree-model';
import { nudgeFor } from './tree-order';
import { useTreeDrag } from './use-tree-drag';
import type { TreeOrganise } from './use-tree-organise';
import { treeKeyActions } from '../ui/tree-keys';
import { TREE_ROW_HEIGHT as ROW_HEIGHT, TreeItemRow } from '../ui/tree-row';

const OVERSCAN = 12;

interface PageTreeProps {
  tree: readonly TreeNode[];
  activePath: string | null;
  onOpen: (path: string) => void;
  /** Given to editors: pages can be dragged, and reordered with Alt+ArrowUp / Alt+ArrowDown. */
  organise?: TreeOrganise;
  /** Given to editors: F2 on a page asks for its new file name. */
  onRename?: (path: string) => void;
}

/**
 * The workspace's pages as a WAI-ARIA tree named "Pages": one treeitem per page and
 * folder, one tab stop (roving tabindex), arrows, Home and End to move, Right and Left
 * to expand and collapse, Enter to open. Only the rows in view are rendered, so a tree
 * of thousands of pages stays fast; the rows carry aria-level, -posinset and -setsize.
 * Editors also drag pages (see use-tree-drag.ts), move a page among its siblings with
 * Alt+ArrowUp and Alt+ArrowDown, and rename one with F2; a live region says what happened.
 */
export function PageTree({ tree, activePath, onOpen, organise, onRename }: PageTreeProps) {
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set(ancestorFolders(activePath ?? '')));
  const [focusKey, setFocusKey] = useState<string | null>(activePath);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);
  const scroller = useRef<HTMLDivElement>(null);
  const wantFocus = useRef(false);

  const rows = useMemo(() => visibleRows(tree, expanded), [tree, expanded]);
  const toggle = (key: string, open?: boolean) =>
    setExpanded((prev) => {
      const next = new Set(prev);
      if (open ?? !prev.has(key)) next.add(key);
      else next.delete(key);
      return next;
    });
  const drag = useTreeDrag(
    tree,
    organise,
    (key) => expanded.has(key),
    (folder) => toggle(folder, true),
  );
  const focusIndex = Math.max(
    0,
    rows.findIndex((r) => r.key === focusKey),
  );

  // Opening a page (a deep link, a search result) unfolds the folders above it.
  const [shownPath, setShownPath] = useState(activePath);
  if (activePath !== shownPath) {
    setShownPath(activePath);
    const missing = ancestorFolders(activePath ?? '').filter((f) => !expanded.has(f));
    if (missing.length) setExpanded(new Set([...expanded, ...missing]));
  }

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setHeight(el.clientHeight || 600));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // Keeps the focused row rendered and focused after keyboard moves.
  useEffect(() => {
    const el = scroller.current;
    if (!el || !wantFocus.current) return;
    const top = focusIndex * ROW_HEIGHT;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + ROW_HEIGHT > el.scrollTop + el.clientHeight)
      el.scrollTop = top + ROW_HEIGHT - el.clientHeight;
    el.querySelector<HTMLElement>(`[data-index="${focusIndex}"]`)?.focus();
    wantFocus.current = false;
  });

  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((scrollTop + height) / ROW_HEIGHT) + OVERSCAN);
  // Only the rows in view are in the DOM, plus a dragged row scrolled out of view: removing
  // the element a drag started from would end the drag.
  const rendered = rows.slice(first, last).map((row, i) => ({ row, index: first + i }));
  const dragIndex = drag.dragKey === null ? -1 : rows.findIndex((r) => r.key === drag.dragKey);
  if (dragIndex >= 0 && (dragIndex < first || dragIndex >= last)) {
    const row = rows[dragIndex];
    if (row) rendered.push({ row, index: dragIndex });
  }
  const moveTo = (index: number) => {
    const row = rows[Math.max(0, Math.min(rows.length - 1, index))];
    if (!row) return;
    wantFocus.current = true;
    setFocusKey(row.key);
  };
  const activate = (row: TreeRow) => {
    if (row.node.type === 'folder') toggle(row.key);
    else onOpen(row.node.path);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const row = rows[focusIndex];
    if (!row) return;
    const isFolder = row.node.type === 'folder';
    if (event.altKey && (event.key === 'ArrowUp' || event.key === 'ArrowDown')) {
      event.preventDefault();
      const request = isFolder ? null : nudgeFor(tree, row.key, event.key === 'ArrowUp' ? -1 : 1);
      if (organise && request) {
        wantFocus.current = true;
        organise.reorder(row.key, request);
      }
      return;
    }
    const open = expanded.has(row.key);
    const keys: Record<string, () => void> = {
      ...treeKeyActions({ rows, focusIndex, isBranch: isFolder, open, moveTo, toggle, activate }),
      F2: () => {
        if (!isFolder) onRename?.(row.key);
      },
    };
    const action = keys[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  };

  return (
    <>
      {organise?.status?.error && (
        <p className="tree-error" role="alert">
          {organise.status.message}
        </p>
      )}
      <div
        className="tree-scroller"
        ref={scroller}
        onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
        onDragOver={drag.onScrollerDragOver}
      >
        <div
          role="tree"
          aria-label="Pages"
          className="tree"
          style={{ height: rows.length * ROW_HEIGHT }}
          onKeyDown={onKeyDown}
        >
          {rendered.map(({ row, index }) => {
            const isFolder = row.node.type === 'folder';
            return (
              <TreeItemRow
                key={row.key}
                index={index}
                level={row.level}
                posinset={row.posinset}
                setsize={row.setsize}
                expanded={isFolder ? expanded.has(row.key) : undefined}
                selected={!isFolder && row.node.path === activePath}
                tabStop={index === focusIndex}
                label={isFolder ? row.node.name : row.node.title}
                modifiers={[
                  drag.target?.key === row.key && `drop-${drag.target.position}`,
                  row.key === drag.dragKey && 'is-dragged',
                ]}
                keyShortcuts={organise && !isFolder ? 'Alt+ArrowUp Alt+ArrowDown F2' : undefined}
                onFocusRow={() => setFocusKey(row.key)}
                onActivate={() => activate(row)}
                rowProps={drag.rowProps(row)}
              />
            );
          })}
        </div>
      </div>
      <p className="visually-hidden" aria-live="polite">
        {organise?.status && !organise.status.error ? organise.status.message : ''}
      </p>
    </>
  );
}
