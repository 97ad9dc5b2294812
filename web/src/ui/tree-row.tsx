import type { HTMLAttributes, ReactNode } from 'react';

/** Every row of a sidebar tree is this tall; the trees place rows and size themselves by it. */
export const TREE_ROW_HEIGHT = 30;

interface TreeItemRowProps {
  /** The row's place among the visible rows: it sets the row's top and finds it to focus. */
  index: number;
  level: number;
  posinset: number;
  setsize: number;
  /** Open or closed for a branch (a folder, a section); undefined for a leaf. */
  expanded: boolean | undefined;
  /** The page open in the editor: selected, current, and highlighted. */
  selected: boolean;
  /** The tree's one tab stop (roving tabindex). */
  tabStop: boolean;
  label: ReactNode;
  /** An outside link: screen readers hear that it opens in a new tab, and a ↗ follows the label. */
  external?: boolean;
  /** Classes after the row's own, where true: a section's look, a drag's drop marker. */
  modifiers?: readonly (string | false)[];
  keyShortcuts?: string;
  /** Makes this row the tree's focused one. */
  onFocusRow: () => void;
  /** What a click on the row does (after focusing it): open the page, fold the folder. */
  onActivate: () => void;
  /**
   * Given when the row's own click does something else than folding (a section with a page
   * opens the page): the chevron then folds the row on its own.
   */
  onToggle?: () => void;
  /** More of the row element's props, such as a drag's handlers. */
  rowProps?: HTMLAttributes<HTMLDivElement>;
}

/**
 * One row of a WAI-ARIA tree in the writers' sidebar: a treeitem with its level, position,
 * open state and selection, indented by its level, a chevron for a branch, and its label.
 * Both sidebar trees (folders, and the docs tool's navigation) draw their rows with it, so
 * that rows look and are announced alike; the trees keep the keyboard (tree-keys.ts).
 */
export function TreeItemRow({
  index,
  level,
  posinset,
  setsize,
  expanded,
  selected,
  tabStop,
  label,
  external,
  modifiers = [],
  keyShortcuts,
  onFocusRow,
  onActivate,
  onToggle,
  rowProps,
}: TreeItemRowProps) {
  const isBranch = expanded !== undefined;
  return (
    <div
      role="treeitem"
      data-index={index}
      aria-level={level}
      aria-posinset={posinset}
      aria-setsize={setsize}
      aria-expanded={expanded}
      aria-selected={selected}
      aria-current={selected ? 'page' : undefined}
      tabIndex={tabStop ? 0 : -1}
      aria-keyshortcuts={keyShortcuts}
      className={['tree-row', selected && 'is-active', ...modifiers].filter(Boolean).join(' ')}
      style={{ top: index * TREE_ROW_HEIGHT, paddingLeft: 8 + (level - 1) * 16 }}
      onClick={() => {
        onFocusRow();
        onActivate();
      }}
      onFocus={onFocusRow}
      {...rowProps}
    >
      <span
        className={`tree-icon ${isBranch ? 'folder' : 'page'}`}
        aria-hidden="true"
        onClick={
          onToggle
            ? (event) => {
                event.stopPropagation();
                onFocusRow();
                onToggle();
              }
            : undefined
        }
      >
        {isBranch ? (expanded ? '▾' : '▸') : ''}
      </span>
      <span className="tree-label">
        {label}
        {external && <span className="visually-hidden"> (opens in a new tab)</span>}
      </span>
      {external && (
        <span className="tree-external" aria-hidden="true">
          ↗
        </span>
      )}
    </div>
  );
}
