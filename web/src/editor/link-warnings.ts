import { ensureSyntaxTree, syntaxTree } from '@codemirror/language';
import { type Diagnostic, linter, lintKeymap } from '@codemirror/lint';
import type { EditorState, Extension } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';
import { isPageHref, resolvePageTarget, resolveRelativeHref } from '../../../src/render/links';
import { pageLocation, workspacePages } from './page-context';

/** Link nodes whose URL names a page; images and autolinks are not page links. */
const LINK_NODES = new Set(['Link', 'LinkReference']);

/**
 * Relative links to `.md` pages the workspace does not have, resolved as the published
 * site resolves them (`x.md`, else `x/index.md`, from this page's folder). Nothing until
 * the page list has loaded; code is skipped because the Markdown parser skips it.
 */
export function missingPageLinks(state: EditorState): Diagnostic[] {
  const pages = state.field(workspacePages, false);
  if (!pages) return [];
  const existing = new Set(pages.map((page) => page.path));
  const { path } = state.facet(pageLocation);
  const tree = ensureSyntaxTree(state, state.doc.length, 200) ?? syntaxTree(state);
  const found: Diagnostic[] = [];
  tree.iterate({
    enter(node) {
      if (node.name !== 'URL' || !LINK_NODES.has(node.node.parent?.name ?? '')) return;
      const href = state.sliceDoc(node.from, node.to).replace(/^<(.*)>$/, '$1');
      if (!isPageHref(href)) return;
      const target = resolveRelativeHref(path, href);
      if (target && resolvePageTarget(target, existing)) return;
      found.push({
        from: node.from,
        to: node.to,
        severity: 'warning',
        message: `No page at ${target ?? href}`,
      });
    },
  });
  return found;
}

const theme = EditorView.theme({
  '.cm-tooltip-lint, .cm-panel.cm-panel-lint': { fontFamily: 'var(--font)', fontSize: '14px' },
  '.cm-diagnostic-warning': { borderLeftColor: 'var(--warning-text)' },
});

/**
 * Missing-page links underlined as warnings, with "No page at <path>" on hover and in the
 * diagnostics panel (Ctrl/Cmd+Shift+M, F8 for the next one). Checked half a second after
 * typing stops and again whenever the workspace's page list changes.
 */
export function linkWarnings(): Extension {
  return [
    linter((view) => missingPageLinks(view.state), {
      delay: 500,
      needsRefresh: (update) =>
        update.startState.field(workspacePages, false) !== update.state.field(workspacePages, false),
    }),
    keymap.of(lintKeymap),
    theme,
  ];
}
