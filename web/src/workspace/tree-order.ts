import type { TreeNode } from '../../../src/contract/pages';
import { joinPath } from './tree-model';

/** Where a dragged page lands relative to a row: above it, below it, or inside a folder. */
export type DropPosition = 'before' | 'after' | 'inside';

/** The body of `POST /api/v1/content/{ws}/reorder`. */
export interface ReorderRequest {
  parent_path: string;
  order: { id: string; sort_order: number }[];
}

/** The folder holding `path` ('' for the top level). */
export const parentOf = (path: string): string => path.split('/').slice(0, -1).join('/');

/** The last segment of a path: a page's file name. */
export const baseName = (path: string): string => path.split('/').at(-1) ?? path;

/** The nodes directly inside `folder` ('' for the top level), or [] when it is not in the tree. */
export function childrenOf(tree: readonly TreeNode[], folder: string): readonly TreeNode[] {
  if (folder === '') return tree;
  for (const node of tree) {
    if (node.type !== 'folder') continue;
    if (node.path === folder) return node.children;
    if (folder.startsWith(`${node.path}/`)) return childrenOf(node.children, folder);
  }
  return [];
}

/**
 * The reorder that puts `moved` at `index` among its siblings (folders included, as the tree
 * shows them). Only pages carry an order the API can write (a folder takes its place from its
 * own index page), so the pages are numbered 1, 2, 3… in their new sequence and folders keep
 * theirs. Null when nothing would change.
 */
export function reorderFor(tree: readonly TreeNode[], moved: string, index: number): ReorderRequest | null {
  const parent = parentOf(moved);
  const siblings = [...childrenOf(tree, parent)];
  const from = siblings.findIndex((n) => n.path === moved);
  const node = siblings[from];
  if (!node) return null;
  siblings.splice(from, 1);
  siblings.splice(Math.max(0, Math.min(siblings.length, index)), 0, node);
  const pages = siblings.filter((n) => n.type === 'page' && n.page_id);
  const order = pages.map((n, i) => ({ id: n.page_id ?? '', sort_order: i + 1 }));
  const unchanged = pages.every((n, i) => n.sort_order === i + 1);
  return unchanged ? null : { parent_path: parent, order };
}

/**
 * The reorder that swaps the page `moved` with the page next to it (`step` -1 up, +1 down),
 * passing over folders: what Alt+ArrowUp / Alt+ArrowDown do. Null at either end.
 */
export function nudgeFor(tree: readonly TreeNode[], moved: string, step: -1 | 1): ReorderRequest | null {
  const siblings = childrenOf(tree, parentOf(moved));
  const from = siblings.findIndex((n) => n.path === moved);
  let to = from + step;
  while (siblings[to]?.type === 'folder') to += step;
  if (from < 0 || !siblings[to]) return null;
  return reorderFor(tree, moved, to);
}

// The server's sibling order (src/services/pages/tree.ts), so an optimistic tree matches the answer.
const byOrderThenName = (a: TreeNode, b: TreeNode): number =>
  a.sort_order - b.sort_order ||
  a.name.localeCompare(b.name, 'en', { numeric: true }) ||
  (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The tree as it will be once `request` is applied: new orders, siblings sorted again. */
export function applyReorder(tree: readonly TreeNode[], request: ReorderRequest): TreeNode[] {
  const orders = new Map(request.order.map((o) => [o.id, o.sort_order]));
  const walk = (nodes: readonly TreeNode[], folder: string): TreeNode[] => {
    const next = nodes.map((node) =>
      node.type === 'folder'
        ? { ...node, children: walk(node.children, node.path) }
        : { ...node, sort_order: orders.get(node.page_id ?? '') ?? node.sort_order },
    );
    return folder === request.parent_path ? next.sort(byOrderThenName) : next;
  };
  return walk(tree, '');
}

/** The tree as it will be once the page at `from` is moved to `to` (same file name, another folder). */
export function applyMove(tree: readonly TreeNode[], from: string, to: string): TreeNode[] {
  let moving: TreeNode | undefined;
  const without = (nodes: readonly TreeNode[]): TreeNode[] =>
    nodes.flatMap((node) => {
      if (node.path === from) {
        moving = node;
        return [];
      }
      return node.type === 'folder' ? [{ ...node, children: without(node.children) }] : [node];
    });
  const rest = without(tree);
  if (!moving) return [...tree];
  const placed: TreeNode = { ...moving, path: to, name: baseName(to) };
  const target = parentOf(to);
  const into = (nodes: TreeNode[], folder: string): TreeNode[] =>
    folder === target
      ? [...nodes, placed].sort(byOrderThenName)
      : nodes.map((node) =>
          node.type === 'folder' && (target === node.path || target.startsWith(`${node.path}/`))
            ? { ...node, children: into(node.children, node.path) }
            : node,
        );
  return into(rest, '');
}

/** Where a page keeps its file name when it goes into `folder`. */
export const pathInFolder = (page: string, folder: string): string => joinPath(folder, baseName(page));
