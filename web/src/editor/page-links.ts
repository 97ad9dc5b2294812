import type { CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import { isInCode } from './markdown-edits';
import { hrefBetween, linkText, pageLocation, workspacePages } from './page-context';

/**
 * `[[` lists the workspace's pages by title, filtered as the writer types. Choosing one
 * writes a standard Markdown link relative to this page's folder, `[Title](../api/auth.md)`,
 * which the published site, the export and git hosts all follow.
 */
export function pageLinks(context: CompletionContext): CompletionResult | null {
  const match = context.matchBefore(/\[\[[^[\]\n]*$/);
  const pages = context.state.field(workspacePages, false);
  if (!match || !pages || isInCode(context.state, context.pos)) return null;
  const { path } = context.state.facet(pageLocation);
  return {
    from: match.from + 2,
    options: pages
      .filter((page) => page.path !== path)
      .map((page) => ({
        label: page.title || page.path,
        detail: page.path,
        type: 'text',
        // `from` is just after the `[[`, which the link replaces too.
        apply: (view, _completion, from, to) => {
          const insert = `[${linkText(page.title || page.path)}](${hrefBetween(path, page.path)})`;
          view.dispatch({
            changes: { from: from - 2, to, insert },
            selection: { anchor: from - 2 + insert.length },
            userEvent: 'input.complete',
          });
        },
      })),
    validFor: /^[^[\]\n]*$/,
  };
}
