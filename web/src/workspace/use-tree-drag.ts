import { useRef, useState, type DragEvent } from 'react';
import type { TreeNode } from '../../../src/contract/pages';
import type { TreeRow } from './tree-model';
import { childrenOf, parentOf, pathInFolder, reorderFor, type DropPosition } from './tree-order';
import type { TreeOrganise } from './use-tree-organise';

/** The row under the pointer and where on it the dragged page would land. */
export interface DropTarget {
  key: string;
  position: DropPosition;
}

// Within this many pixels of the scroller's top or bottom edge, a drag scrolls the tree.
const EDGE = 36;
const EDGE_STEP = 12;
const MIME = 'application/x-folio-page';

/** Above, below or into a row, from how far down the row the pointer is. */
function positionOn(row: TreeRow, expanded: boolean, event: DragEvent<HTMLElement>): DropPosition {
  const rect = event.currentTarget.getBoundingClientRect();
  const y = (event.clientY - rect.top) / (rect.height || 1);
  if (row.node.type !== 'folder') return y < 0.5 ? 'before' : 'after';
  if (y < 0.25) return 'before';
  // Below an open folder come its own pages, so the lower edge means "into it" too.
  return y > 0.75 && !expanded ? 'after' : 'inside';
}

/**
 * HTML5 drag and drop for the page tree: pages are dragged (folders cannot be moved, the
 * move API takes pages), dropped into a folder to move them there, or above or below a
 * sibling to reorder. Dropping beside a row of another folder moves the page into that
 * folder. Near the scroller's edges the tree scrolls, so the virtualised rows come into view.
 */
export function useTreeDrag(
  tree: readonly TreeNode[],
  organise: TreeOrganise | undefined,
  isExpanded: (key: string) => boolean,
  expand: (folder: string) => void,
) {
  const [dragKey, setDragKey] = useState<string | null>(null);
  const [target, setTarget] = useState<DropTarget | null>(null);
  const dragging = useRef<string | null>(null);

  const end = () => {
    dragging.current = null;
    setDragKey(null);
    setTarget(null);
  };

  /** What dropping `from` on `at` would do, or null when it would change nothing. */
  const resolve = (from: string, at: DropTarget): (() => void) | null => {
    if (!organise || at.key === from) return null;
    if (at.position === 'inside') {
      if (at.key === parentOf(from)) return null;
      // The folder opens, so the page is seen where it went.
      return () => {
        expand(at.key);
        organise.move(from, pathInFolder(from, at.key));
      };
    }
    const folder = parentOf(at.key);
    if (folder !== parentOf(from)) return () => organise.move(from, pathInFolder(from, folder));
    const others = childrenOf(tree, folder).filter((n) => n.path !== from);
    const index = others.findIndex((n) => n.path === at.key) + (at.position === 'after' ? 1 : 0);
    const request = reorderFor(tree, from, index);
    return request ? () => organise.reorder(from, request) : null;
  };

  const rowProps = (row: TreeRow) => {
    if (!organise) return {};
    return {
      draggable: row.node.type === 'page',
      onDragStart: (event: DragEvent<HTMLElement>) => {
        if (row.node.type !== 'page') return;
        event.dataTransfer.effectAllowed = 'move';
        event.dataTransfer.setData(MIME, row.key);
        event.dataTransfer.setData('text/plain', row.key);
        dragging.current = row.key;
        setDragKey(row.key);
      },
      onDragOver: (event: DragEvent<HTMLElement>) => {
        const from = dragging.current;
        if (!from) return;
        const at = { key: row.key, position: positionOn(row, isExpanded(row.key), event) };
        if (!resolve(from, at)) {
          event.dataTransfer.dropEffect = 'none';
          if (target) setTarget(null);
          return;
        }
        event.preventDefault();
        event.dataTransfer.dropEffect = 'move';
        if (target?.key !== at.key || target.position !== at.position) setTarget(at);
      },
      onDrop: (event: DragEvent<HTMLElement>) => {
        const from = dragging.current;
        event.preventDefault();
        const action = from
          ? resolve(from, { key: row.key, position: positionOn(row, isExpanded(row.key), event) })
          : null;
        end();
        action?.();
      },
      onDragEnd: end,
    };
  };

  /** On the scroller: scrolls the tree while a page is held near its top or bottom edge. */
  const onScrollerDragOver = (event: DragEvent<HTMLElement>) => {
    if (!dragging.current) return;
    const el = event.currentTarget;
    const rect = el.getBoundingClientRect();
    if (event.clientY < rect.top + EDGE) el.scrollBy({ top: -EDGE_STEP });
    else if (event.clientY > rect.bottom - EDGE) el.scrollBy({ top: EDGE_STEP });
  };

  return { dragKey, target, rowProps, onScrollerDragOver };
}
