import { Facet, StateEffect, StateField, type Extension } from '@codemirror/state';
import type { TreeNode } from '../../../src/contract/pages';
import { relativeHref } from '../../../src/render/links';

/** Which page the editor holds: uploads go to its workspace, links are written relative to it. */
export interface PageLocation {
  slug: string;
  /** Workspace path of the open page, e.g. `guides/setup.md`. */
  path: string;
}

export const pageLocation = Facet.define<PageLocation, PageLocation>({
  combine: (values) => values[0] ?? { slug: '', path: '' },
});

/** A page of the workspace as the link tools offer and check it. */
export interface WorkspacePage {
  path: string;
  title: string;
}

/** Replaces the workspace's page list (the tree query loaded or changed). */
export const setWorkspacePages = StateEffect.define<readonly WorkspacePage[]>();

/**
 * The workspace's pages, or null until the tree has loaded (so no link is called missing
 * before Folio knows which pages exist). A new array whenever the tree changes.
 */
export const workspacePages = StateField.define<readonly WorkspacePage[] | null>({
  create: () => null,
  update: (pages, tr) => {
    for (const effect of tr.effects) if (effect.is(setWorkspacePages)) pages = effect.value;
    return pages;
  },
});

/** The page-location facet and the page list, which the editor's tools read. */
export function pageContext(location: PageLocation): Extension {
  return [pageLocation.of(location), workspacePages];
}

/** Every page of a tree, depth first, as the tree lists them. */
export function pagesOfTree(tree: readonly TreeNode[]): WorkspacePage[] {
  const pages: WorkspacePage[] = [];
  const walk = (nodes: readonly TreeNode[]) => {
    for (const node of nodes) {
      if (node.type === 'page') pages.push({ path: node.path, title: node.title });
      walk(node.children);
    }
  };
  walk(tree);
  return pages;
}

/**
 * The href a Markdown link on page `fromPath` uses for the workspace file `toPath`: relative
 * (as the published site, the export and git hosts all resolve it), each segment
 * percent-encoded, parentheses too, so the link's `(…)` is never cut short.
 */
export function hrefBetween(fromPath: string, toPath: string): string {
  return relativeHref(fromPath, toPath)
    .split('/')
    .map((segment) => encodeURIComponent(segment).replace(/[()]/g, (c) => (c === '(' ? '%28' : '%29')))
    .join('/');
}

/** Text safe inside a Markdown link's or image's `[…]`. */
export const linkText = (text: string): string => text.replace(/[\\[\]]/g, '\\$&');
