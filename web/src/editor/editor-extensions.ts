import { autocompletion } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { markdownSupport } from './markdown-language';
import { defaultHighlightStyle, HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { highlightSelectionMatches, search, searchKeymap } from '@codemirror/search';
import { EditorState, type Extension } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, keymap } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { cspNonce } from './csp-nonce';

/** Markdown marks in the app's own colours (CSS variables), so light and dark both read well. */
const markdownStyle = HighlightStyle.define([
  { tag: tags.heading1, fontWeight: '700', fontSize: '1.35em' },
  { tag: tags.heading2, fontWeight: '700', fontSize: '1.2em' },
  { tag: [tags.heading3, tags.heading4, tags.heading5, tags.heading6], fontWeight: '700' },
  { tag: tags.strong, fontWeight: '700' },
  { tag: tags.emphasis, fontStyle: 'italic' },
  { tag: tags.strikethrough, textDecoration: 'line-through' },
  { tag: [tags.link, tags.url], color: 'var(--accent)' },
  { tag: tags.monospace, fontFamily: 'var(--font-mono)', color: 'var(--code)' },
  { tag: [tags.processingInstruction, tags.meta, tags.contentSeparator], color: 'var(--muted)' },
  { tag: tags.quote, color: 'var(--muted)', fontStyle: 'italic' },
]);

const theme = EditorView.theme({
  '&': { height: '100%', backgroundColor: 'var(--surface)', color: 'var(--text)' },
  '.cm-scroller': { fontFamily: 'var(--font-mono)', fontSize: '15px', lineHeight: '1.65' },
  '.cm-content': { padding: '24px 0 40vh', maxWidth: '80ch', margin: '0 auto', caretColor: 'var(--text)' },
  '.cm-line': { padding: '0 24px' },
  '&.cm-focused': { outline: 'none' },
  '.cm-activeLine': { backgroundColor: 'var(--active-line)' },
  '.cm-selectionBackground, &.cm-focused .cm-selectionBackground': { backgroundColor: 'var(--selection)' },
  '.cm-cursor': { borderLeftColor: 'var(--text)' },
  '.cm-panels': { backgroundColor: 'var(--surface-2)', color: 'var(--text)' },
});

export interface ExtensionOptions {
  readOnly: boolean;
  onDocChanged: () => void;
  onSave: () => void;
}

/** The editor's behaviour: Markdown, history, find and replace, Mod-S, and its accessible name. */
export function editorExtensions({ readOnly, onDocChanged, onSave }: ExtensionOptions): Extension[] {
  return [
    cspNonce,
    history(),
    drawSelection(),
    highlightActiveLine(),
    EditorView.lineWrapping,
    markdownSupport(),
    syntaxHighlighting(markdownStyle),
    syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
    search({ top: true }),
    highlightSelectionMatches(),
    autocompletion({ override: [] }),
    keymap.of([
      {
        key: 'Mod-s',
        preventDefault: true,
        run: () => {
          onSave();
          return true;
        },
      },
      ...defaultKeymap,
      ...historyKeymap,
      ...searchKeymap,
      indentWithTab,
    ]),
    EditorState.readOnly.of(readOnly),
    EditorView.editable.of(!readOnly),
    EditorView.contentAttributes.of({
      'aria-label': 'Editor',
      // A tab stop even when read-only, so the page can be scrolled and read by keyboard.
      tabindex: '0',
      ...(readOnly ? { 'aria-readonly': 'true' } : {}),
      spellcheck: 'true',
    }),
    EditorView.updateListener.of((update) => {
      if (update.docChanged) onDocChanged();
    }),
    theme,
  ];
}
