import { autocompletion } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { markdownSupport } from './markdown-language';
import { defaultHighlightStyle, HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { highlightSelectionMatches, search, searchKeymap } from '@codemirror/search';
import { EditorState, type Extension } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, keymap } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { cspNonce } from './csp-nonce';
import { type EditorMode, editorModeExtension } from './editor-mode';
import { imageUpload } from './image-upload';
import { linkWarnings } from './link-warnings';
import { pageContext, type PageLocation } from './page-context';
import { pageLinks } from './page-links';
import { richPaste } from './rich-paste';
import { slashCommands } from './slash-commands';
import { formattingKeys } from './toolbar';

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
  // Completion lists and hover messages in the app's colours, so they read in the dark theme too.
  '.cm-tooltip': {
    backgroundColor: 'var(--surface)',
    color: 'var(--text)',
    border: '1px solid var(--border)',
    borderRadius: 'var(--radius)',
    boxShadow: 'var(--shadow)',
  },
  '.cm-tooltip.cm-tooltip-autocomplete > ul': {
    fontFamily: 'var(--font)',
    fontSize: '14px',
    padding: '4px',
    // Tall enough for every slash command at once, so the list only scrolls for long page lists.
    maxHeight: '30em',
  },
  '.cm-tooltip.cm-tooltip-autocomplete > ul > li': {
    padding: '4px 10px',
    borderRadius: '6px',
    lineHeight: '1.5',
  },
  '.cm-tooltip-autocomplete ul li[aria-selected]': {
    backgroundColor: 'var(--accent)',
    color: 'var(--accent-text)',
  },
  '.cm-completionDetail': {
    marginLeft: '1em',
    fontStyle: 'normal',
    fontFamily: 'var(--font-mono)',
    opacity: '0.75',
  },
  '.cm-completionMatchedText': { textDecoration: 'none', fontWeight: '700' },
});

export interface ExtensionOptions {
  /** The open page: where uploads go and what links are relative to. */
  page: PageLocation;
  readOnly: boolean;
  /** Live preview or source; switched later with `setEditorMode`. */
  mode: EditorMode;
  /** Ctrl/Cmd+E: the writer asks for the other mode. */
  onToggleMode: () => void;
  onDocChanged: () => void;
  onSave: () => void;
}

/**
 * The editor's behaviour: Markdown, live preview or source, history, find and replace, Mod-S,
 * the writing tools (rich paste, image upload, slash commands, `[[` page links, missing-page
 * warnings) and its accessible name.
 */
export function editorExtensions({
  page,
  readOnly,
  mode,
  onToggleMode,
  onDocChanged,
  onSave,
}: ExtensionOptions): Extension[] {
  return [
    cspNonce,
    pageContext(page),
    history(),
    drawSelection(),
    highlightActiveLine(),
    EditorView.lineWrapping,
    markdownSupport(),
    syntaxHighlighting(markdownStyle),
    syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
    search({ top: true }),
    highlightSelectionMatches(),
    autocompletion({ override: [slashCommands, pageLinks], icons: false }),
    editorModeExtension(mode, onToggleMode),
    // Rich paste first: a Word or Google Docs clipboard also holds a picture of the selection.
    readOnly ? [] : [richPaste(), imageUpload()],
    linkWarnings(),
    formattingKeys,
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
