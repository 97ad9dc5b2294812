import type { TreeNode } from '../../../src/contract/pages';

/** One visible line of the tree, with what the WAI-ARIA tree pattern needs to describe it. */
export interface TreeRow {
  node: TreeNode;
  /** Folders by path, pages by path: unique in a workspace. */
  key: string;
  level: number;
  posinset: number;
  setsize: number;
  parentKey: string | null;
}

/** The rows a reader sees: folders list their children only when expanded. */
export function visibleRows(tree: readonly TreeNode[], expanded: ReadonlySet<string>): TreeRow[] {
  const rows: TreeRow[] = [];
  const walk = (nodes: readonly TreeNode[], level: number, parentKey: string | null) => {
    nodes.forEach((node, index) => {
      rows.push({ node, key: node.path, level, posinset: index + 1, setsize: nodes.length, parentKey });
      if (node.type === 'folder' && expanded.has(node.path)) walk(node.children, level + 1, node.path);
    });
  };
  walk(tree, 1, null);
  return rows;
}

/** The folders on the way to `pagePath`, so opening a deep link shows where the page sits. */
export function ancestorFolders(pagePath: string): string[] {
  const parts = pagePath.split('/').slice(0, -1);
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}

/** Every folder path of the tree, for the "Move to…" and "New page" folder choices. */
export function folderPaths(tree: readonly TreeNode[]): string[] {
  const out: string[] = [];
  const walk = (nodes: readonly TreeNode[]) => {
    for (const node of nodes) {
      if (node.type === 'folder') {
        out.push(node.path);
        walk(node.children);
      }
    }
  };
  walk(tree);
  return out;
}

/** A file name from a title: lowercase words joined by hyphens, `.md` added. */
export function fileNameFor(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${slug || 'untitled'}.md`;
}

/** `folder` + `name` as a workspace path (no leading slash). */
export const joinPath = (folder: string, name: string): string => (folder ? `${folder}/${name}` : name);
