import {
  deleteMarkupBackward,
  insertNewlineContinueMarkup,
  markdownLanguage,
  pasteURLAsLink,
} from '@codemirror/lang-markdown';
import { LanguageSupport } from '@codemirror/language';
import { Prec } from '@codemirror/state';
import { keymap } from '@codemirror/view';

/**
 * GitHub-flavoured Markdown with list continuation on Enter, markup-aware Backspace and
 * pasting a URL over a selection as a link. Unlike `markdown()`, it leaves out the HTML
 * grammar for inline tags, and with it the HTML, CSS and JavaScript parsers, which were
 * more than half of the editor's code: inline HTML shows as plain text.
 */
export function markdownSupport(): LanguageSupport {
  return new LanguageSupport(markdownLanguage, [
    pasteURLAsLink,
    Prec.high(
      keymap.of([
        { key: 'Enter', run: insertNewlineContinueMarkup },
        { key: 'Backspace', run: deleteMarkupBackward },
      ]),
    ),
  ]);
}
