import { type Extension, Prec } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { uploadImages, uploadRemoteImage } from './image-upload';

/** Set by Ctrl/Cmd+Shift+V: the paste that follows within a moment takes the plain text. */
let plainUntil = 0;

/** A `data:` image of the clipboard's HTML as a file to upload. */
function dataUrlFile(url: string, index: number): File | null {
  const m = /^data:(image\/[\w.+-]+);base64,(.*)$/s.exec(url);
  if (!m) return null;
  try {
    const bytes = Uint8Array.from(atob(m[2]!.replace(/\s+/g, '')), (c) => c.charCodeAt(0));
    const ext = m[1]!.split('/')[1]!.replace('svg+xml', 'svg').replace('jpeg', 'jpg');
    return new File([bytes], `pasted-image-${index + 1}.${ext}`, { type: m[1]! });
  } catch {
    return null;
  }
}

/**
 * A blank line before pasted blocks that land on an empty line right under text, so a
 * heading, list or table starts a block of its own rather than running on from the text above.
 */
function blockLead(view: EditorView, from: number, markdown: string): string {
  const { doc } = view.state;
  const line = doc.lineAt(from);
  if (!markdown.includes('\n') || line.text.trim() !== '' || line.number === 1) return '';
  return doc.line(line.number - 1).text.trim() ? '\n' : '';
}

/**
 * Puts the Markdown of a clipboard's HTML at `from`…`to`, and uploads its images (`data:`
 * ones, and remote ones unless the workspace keeps them as links) where they stood. When the writer typed while the converter loaded, it goes at the cursor.
 */
async function pasteHtml(view: EditorView, html: string, from: number, to: number): Promise<void> {
  const doc = view.state.doc;
  const { htmlToMarkdown, IMAGE_SLOT, remoteImageLink } = await import('./html-to-markdown');
  const { markdown, images } = htmlToMarkdown(html);
  if (!view.dom.isConnected) return;
  if (view.state.doc !== doc) ({ from, to } = view.state.selection.main);
  const slots: number[] = [];
  const lead = blockLead(view, from, markdown);
  const text =
    lead +
    markdown.replace(new RegExp(IMAGE_SLOT, 'g'), (_m, offset: number) => {
      slots.push(lead.length + offset - slots.length * IMAGE_SLOT.length);
      return '';
    });
  view.dispatch({
    changes: { from, to, insert: text },
    selection: { anchor: from + text.length },
    scrollIntoView: true,
    userEvent: 'input.paste',
  });
  // From the last, so the earlier positions stay where they were.
  // All uploads start at once; each link lands where its placeholder is when it arrives.
  for (let i = slots.length - 1; i >= 0; i--) {
    const image = images[i]!;
    if (image.src.startsWith('data:')) {
      const file = dataUrlFile(image.src, i);
      if (file) uploadImages(view, [file], from + slots[i]!);
    } else uploadRemoteImage(view, image.src, image.alt, remoteImageLink(image), from + slots[i]!);
  }
  view.focus();
}

/**
 * Paste like a word processor: HTML on the clipboard (Google Docs, Word, Confluence, web
 * pages) becomes clean Markdown at the cursor; plain text and Ctrl/Cmd+Shift+V paste the
 * text as it is. The converter (turndown) is loaded on the first rich paste.
 */
export function richPaste(): Extension {
  return Prec.high(
    EditorView.domEventHandlers({
      keydown(event) {
        if ((event.ctrlKey || event.metaKey) && event.shiftKey && event.key.toLowerCase() === 'v')
          plainUntil = Date.now() + 1000;
        return false;
      },
      paste(event, view) {
        const data = event.clipboardData;
        if (!data || view.state.readOnly) return false;
        const plain = data.getData('text/plain');
        if (Date.now() < plainUntil) {
          plainUntil = 0;
          event.preventDefault();
          const { from, to } = view.state.selection.main;
          view.dispatch({
            changes: { from, to, insert: plain },
            selection: { anchor: from + plain.length },
            scrollIntoView: true,
            userEvent: 'input.paste',
          });
          return true;
        }
        const html = data.getData('text/html');
        // A copy from a code editor is code, not a document: CodeMirror pastes its text.
        if (!html || /class="?(cm-|monaco-)|vscode-/.test(html)) return false;
        event.preventDefault();
        const { from, to } = view.state.selection.main;
        void pasteHtml(view, html, from, to);
        return true;
      },
    }),
  );
}
