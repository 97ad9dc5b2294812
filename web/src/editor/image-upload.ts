import { type EditorState, StateEffect, StateField, Transaction, type Extension } from '@codemirror/state';
import { Decoration, type DecorationSet, EditorView, showPanel, type Panel } from '@codemirror/view';
import { api } from '../api/client';
import { errorText } from '../ui/form-error';
import { hrefBetween, linkText, pageLocation } from './page-context';

/** The 201 answer of `POST /api/v1/content/{workspace}/uploads` (src/services/pages/uploads.ts). */
interface StoredUpload {
  /** Workspace-relative, e.g. `uploads/diagram.png`. */
  path: string;
  url: string;
  filename: string;
  content_type: string;
}

let nextUploadId = 1;

const addPlaceholder = StateEffect.define<{ id: number; from: number; to: number }>();
const removePlaceholder = StateEffect.define<number>();

/**
 * Where each upload's `![Uploading …]()` text is now: marks that follow the writer's edits,
 * so the link replaces the placeholder wherever it has moved. A placeholder the writer
 * deleted is gone from the set, and its link is then not inserted.
 */
const placeholders = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, tr) {
    marks = marks.map(tr.changes);
    for (const effect of tr.effects) {
      if (effect.is(addPlaceholder)) {
        const { id, from, to } = effect.value;
        const mark = Decoration.mark({ class: 'cm-uploading', uploadId: id });
        marks = marks.update({ add: [mark.range(from, to)] });
      } else if (effect.is(removePlaceholder)) {
        marks = marks.update({ filter: (_from, _to, mark) => mark.spec.uploadId !== effect.value });
      }
    }
    return marks;
  },
  provide: (field) => EditorView.decorations.from(field),
});

const setUploadError = StateEffect.define<string | null>();

/** The last failed upload, shown above the text until dismissed or the next upload starts. */
const uploadError = StateField.define<string | null>({
  create: () => null,
  update(message, tr) {
    for (const effect of tr.effects) if (effect.is(setUploadError)) message = effect.value;
    return message;
  },
  provide: (field) => showPanel.from(field, (message) => (message ? errorPanel(message) : null)),
});

function errorPanel(message: string) {
  return (view: EditorView): Panel => {
    const dom = document.createElement('div');
    dom.className = 'cm-upload-error';
    dom.setAttribute('role', 'alert');
    const text = document.createElement('span');
    text.textContent = message;
    const dismiss = document.createElement('button');
    dismiss.type = 'button';
    dismiss.className = 'button small';
    dismiss.textContent = 'Dismiss';
    dismiss.onclick = () => {
      view.dispatch({ effects: setUploadError.of(null) });
      view.focus();
    };
    dom.append(text, dismiss);
    return { dom, top: true };
  };
}

/** The image files of a paste, a drop or a file chooser. */
const imagesIn = (data: { files: FileList | null } | null): File[] =>
  Array.from(data?.files ?? []).filter((file) => file.type.startsWith('image/'));

/** Alt text from a file name: `release-chart.png` → `release-chart`. */
const altOf = (name: string): string => name.replace(/\.[^.]+$/, '') || name;

/**
 * The link to a stored upload: an image link when the server found an image in the bytes,
 * else a plain link (the server decides the type from the bytes, never from the name).
 */
function markdownFor(stored: StoredUpload, clientName: string, pagePath: string): string {
  const link = `[${linkText(altOf(clientName))}](${hrefBetween(pagePath, stored.path)})`;
  return stored.content_type.startsWith('image/') ? `!${link}` : link;
}

/**
 * Uploads `files` to the open page's workspace and links them at `from`…`to`: a placeholder
 * per file at once, replaced by `![name](relative/path)` when its upload is stored, or
 * removed, with the reason shown, when the server refuses it.
 */
export function uploadImages(view: EditorView, files: readonly File[], from: number, to = from): void {
  if (files.length === 0) return;
  const { slug, path } = view.state.facet(pageLocation);
  const uploads = files.map((file) => ({ file, id: nextUploadId++ }));
  let insert = '';
  const effects = uploads.map(({ file, id }, i) => {
    if (i > 0) insert += '\n';
    const start = from + insert.length;
    insert += `![Uploading ${linkText(file.name)}…]()`;
    return addPlaceholder.of({ id, from: start, to: from + insert.length });
  });
  // The history records the writer's part (the replaced selection, then each link as it
  // arrives), never a placeholder: undo takes a link out and cannot bring a placeholder back.
  if (to > from) view.dispatch({ changes: { from, to }, userEvent: 'delete.selection' });
  view.dispatch({
    changes: { from, insert },
    effects: [...effects, setUploadError.of(null)],
    selection: { anchor: from + insert.length },
    scrollIntoView: true,
    annotations: Transaction.addToHistory.of(false),
    userEvent: 'input.paste',
  });
  for (const { file, id } of uploads) {
    const form = new FormData();
    form.append('file', file, file.name);
    api<StoredUpload>('POST', `/api/v1/content/${encodeURIComponent(slug)}/uploads`, form).then(
      (stored) => settle(view, id, markdownFor(stored, file.name, path), null),
      (error: unknown) => settle(view, id, '', `Could not upload ${file.name}: ${errorText(error)}`),
    );
  }
}

/** Replaces an upload's placeholder (if the writer kept it) with `text`; shows `error`, if any. */
function settle(view: EditorView, id: number, text: string, error: string | null): void {
  // The page was closed while the file was uploading.
  if (!view.dom.isConnected) return;
  const found = placeholderRange(view.state, id);
  const { main } = view.state.selection;
  const cursorAfter = found !== null && main.empty && main.head === found.to;
  view.dispatch({
    changes: found ?? undefined,
    effects: error === null ? removePlaceholder.of(id) : [removePlaceholder.of(id), setUploadError.of(error)],
    annotations: Transaction.addToHistory.of(false),
  });
  if (!found || !text) return;
  view.dispatch({
    changes: { from: found.from, insert: text },
    // A writer typing on after the placeholder stays after the link.
    selection: cursorAfter ? { anchor: found.from + text.length } : undefined,
    userEvent: 'input.paste',
  });
}

/**
 * The text to save: the editor's text without upload placeholders, so a page is never
 * stored with `![Uploading …]()` in it, however long an upload takes. The link is saved
 * once it has replaced its placeholder.
 */
export function textToSave(state: EditorState): string {
  let text = '';
  let at = 0;
  for (const mark = state.field(placeholders, false)?.iter(); mark?.value; mark.next()) {
    text += state.sliceDoc(at, mark.from);
    at = mark.to;
  }
  return text + state.sliceDoc(at);
}

function placeholderRange(state: EditorState, id: number): { from: number; to: number } | null {
  for (const mark = state.field(placeholders).iter(); mark.value; mark.next())
    if (mark.value.spec.uploadId === id) return { from: mark.from, to: mark.to };
  return null;
}

/** Opens the system file chooser for images and links the chosen ones at the cursor. */
export function chooseImages(view: EditorView): void {
  const input = document.createElement('input');
  input.type = 'file';
  input.accept = 'image/*';
  input.multiple = true;
  input.onchange = () => {
    const { from, to } = view.state.selection.main;
    uploadImages(view, imagesIn(input), from, to);
  };
  input.click();
}

const theme = EditorView.theme({
  '.cm-uploading': { color: 'var(--muted)', fontStyle: 'italic' },
  '.cm-upload-error': {
    display: 'flex',
    alignItems: 'center',
    gap: '10px',
    flexWrap: 'wrap',
    padding: '8px 24px',
    background: 'var(--warning-bg)',
    color: 'var(--warning-text)',
    fontFamily: 'var(--font)',
    fontSize: '14px',
  },
});

/** Pasting or dropping image files uploads them and links them where they landed. */
export function imageUpload(): Extension {
  return [
    placeholders,
    uploadError,
    theme,
    EditorView.domEventHandlers({
      paste(event, view) {
        const files = imagesIn(event.clipboardData);
        if (files.length === 0) return false;
        event.preventDefault();
        const { from, to } = view.state.selection.main;
        uploadImages(view, files, from, to);
        return true;
      },
      dragover(event) {
        // Without this the browser opens a dragged file instead of dropping it here.
        if (event.dataTransfer?.types.includes('Files')) event.preventDefault();
        return false;
      },
      drop(event, view) {
        const files = imagesIn(event.dataTransfer);
        if (files.length === 0) return false;
        event.preventDefault();
        const at = view.posAtCoords({ x: event.clientX, y: event.clientY }) ?? view.state.selection.main.head;
        uploadImages(view, files, at);
        return true;
      },
    }),
  ];
}
