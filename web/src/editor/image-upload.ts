import { isolateHistory } from '@codemirror/commands';
import { StateEffect, StateField, type Extension } from '@codemirror/state';
import { Decoration, EditorView, showPanel, WidgetType, type Panel } from '@codemirror/view';
import type { StoredUploadRecord } from '../../../src/contract/pages';
import { api, ApiError } from '../api/client';
import { errorText } from '../ui/form-error';
import { hrefBetween, linkText, pageLocation } from './page-context';

/** The 201 answer of `POST /api/v1/content/{workspace}/uploads`. */
type StoredUpload = StoredUploadRecord;

/** An upload in progress: where its link will go, and its place among the files sent together. */
interface Pending {
  id: number;
  name: string;
  at: number;
  batch: number;
  index: number;
}

/** The uploads in progress, and which of each batch have been linked (they decide the line breaks). */
interface Uploads {
  pending: readonly Pending[];
  linked: ReadonlyMap<number, ReadonlySet<number>>;
}

let nextUploadId = 1;

const addPlaceholders = StateEffect.define<readonly Pending[]>();
/**
 * Ends an upload. With `laterAt`, its link is inserted by the same transaction at its place,
 * and the later files of its batch still waiting there move to `laterAt`, right after the link.
 */
const endUpload = StateEffect.define<{ id: number; laterAt?: number }>();

/**
 * Where each upload's link will go. The placeholder is no text, only a widget at a position
 * that follows every edit (the writer's, a co-writer's, a reload's), so nothing of an upload
 * in progress reaches the document, the co-editing room, the history or the file. Text typed
 * at the spot goes after the widget, so it stays after the link; a deletion around the spot
 * keeps the upload, whose link lands where the deleted text was.
 */
const uploads = StateField.define<Uploads>({
  create: () => ({ pending: [], linked: new Map() }),
  update(value, tr) {
    let { pending, linked } = value;
    const ended = tr.effects.find((e) => e.is(endUpload))?.value;
    const settling = ended && pending.find((p) => p.id === ended.id);
    if (!tr.changes.empty) {
      pending = pending.map((p) => {
        // A link goes after the earlier files of its batch and before the later ones.
        const later =
          settling && p.batch === settling.batch && p.index > settling.index && p.at === settling.at;
        return {
          ...p,
          at: later && ended.laterAt !== undefined ? ended.laterAt : tr.changes.mapPos(p.at, -1),
        };
      });
    }
    for (const effect of tr.effects) {
      if (effect.is(addPlaceholders)) pending = [...pending, ...effect.value];
      else if (effect.is(endUpload)) {
        const done = pending.find((p) => p.id === effect.value.id);
        pending = pending.filter((p) => p.id !== effect.value.id);
        if (done && effect.value.laterAt !== undefined) {
          linked = new Map(linked).set(done.batch, new Set([...(linked.get(done.batch) ?? []), done.index]));
        }
      }
    }
    // A finished batch is forgotten.
    for (const batch of linked.keys())
      if (!pending.some((p) => p.batch === batch)) linked = new Map([...linked].filter(([b]) => b !== batch));
    return pending === value.pending && linked === value.linked ? value : { pending, linked };
  },
  provide: (field) =>
    EditorView.decorations.from(field, ({ pending }) =>
      Decoration.set(
        pending.map((p) =>
          Decoration.widget({ widget: new UploadingWidget(p.id, p.name), side: -1 }).range(p.at),
        ),
        true,
      ),
    ),
});

/** "Uploading name…" where the file's link will go, announced politely to screen readers. */
class UploadingWidget extends WidgetType {
  constructor(
    readonly id: number,
    readonly name: string,
  ) {
    super();
  }

  override eq(other: UploadingWidget): boolean {
    return other.id === this.id;
  }

  toDOM(): HTMLElement {
    const dom = document.createElement('span');
    dom.className = 'cm-uploading';
    dom.setAttribute('role', 'status');
    dom.textContent = `Uploading ${this.name}…`;
    return dom;
  }
}

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
 * Uploads `files` to the open page's workspace and links them at `from`…`to`: an
 * "Uploading name…" placeholder per file at once (shown, never written), replaced by
 * `![name](relative/path)` when its upload is stored, or removed, with the reason shown,
 * when the server refuses it.
 */
export function uploadImages(view: EditorView, files: readonly File[], from: number, to = from): void {
  if (files.length === 0) return;
  const { slug, path } = view.state.facet(pageLocation);
  const batch = nextUploadId;
  const pending = files.map((file, index) => ({
    id: nextUploadId++,
    name: file.name,
    at: from,
    batch,
    index,
  }));
  // The history records the writer's part: the replaced selection, then each link as it arrives.
  if (to > from) view.dispatch({ changes: { from, to }, userEvent: 'delete.selection' });
  view.dispatch({
    effects: [addPlaceholders.of(pending), setUploadError.of(null)],
    selection: { anchor: from },
    scrollIntoView: true,
  });
  pending.forEach(({ id }, i) => {
    const file = files[i]!;
    const form = new FormData();
    form.append('file', file, file.name);
    api<StoredUpload>('POST', `/api/v1/content/${encodeURIComponent(slug)}/uploads`, form).then(
      (stored) => settle(view, id, markdownFor(stored, file.name, path), null),
      (error: unknown) => settle(view, id, '', `Could not upload ${file.name}: ${errorText(error)}`),
    );
  });
}

/**
 * Inserts an upload's link (`text`) where its placeholder is now, as one undoable step of
 * its own, or only removes the placeholder when there is no text; `error` (or none) is shown.
 */
function settle(view: EditorView, id: number, text: string, error: string | null): void {
  // The page was closed while the file was uploading.
  if (!view.dom.isConnected) return;
  const { pending, linked } = view.state.field(uploads);
  const upload = pending.find((p) => p.id === id);
  if (!upload) return;
  if (!text) {
    view.dispatch({ effects: [endUpload.of({ id }), setUploadError.of(error)] });
    return;
  }
  // Files sent together get a line each, in the order they were sent, whichever arrives first.
  const done = [...(linked.get(upload.batch) ?? [])];
  const afterEarlier = done.some((index) => index < upload.index);
  const beforeLater = !afterEarlier && done.some((index) => index > upload.index);
  const link = `${afterEarlier ? '\n' : ''}${text}`;
  const insert = `${link}${beforeLater ? '\n' : ''}`;
  const { main } = view.state.selection;
  view.dispatch({
    changes: { from: upload.at, insert },
    // A link arriving after another upload failed leaves that failure in view.
    effects: [
      endUpload.of({ id, laterAt: upload.at + link.length }),
      ...(error ? [setUploadError.of(error)] : []),
    ],
    // A writer who stayed at the spot goes on after the link.
    selection: main.empty && main.head === upload.at ? { anchor: upload.at + insert.length } : undefined,
    annotations: isolateHistory.of('full'),
    userEvent: 'input.paste',
  });
}

/** Workspaces (by slug) whose setting keeps pasted remote images as links: not asked again. */
const remoteImagesOff = new Set<string>();

/**
 * Uploads a remote image of a rich paste through `POST …/uploads/from-url` and links the
 * stored copy at `at`, with the same placeholder as a file upload. When the server cannot
 * fetch it, `fallback` (the link to its URL) goes there instead and the reason is shown;
 * when the workspace keeps remote images as links (403), `fallback` goes there silently.
 */
export function uploadRemoteImage(
  view: EditorView,
  url: string,
  alt: string,
  fallback: string,
  at: number,
): void {
  const { slug, path } = view.state.facet(pageLocation);
  if (remoteImagesOff.has(slug)) {
    view.dispatch({ changes: { from: at, insert: fallback }, userEvent: 'input.paste' });
    return;
  }
  const id = nextUploadId++;
  const name =
    url
      .replace(/[?#].*$/, '')
      .split('/')
      .pop() || 'image';
  view.dispatch({
    effects: [addPlaceholders.of([{ id, name, at, batch: id, index: 0 }]), setUploadError.of(null)],
  });
  api<StoredUpload>('POST', `/api/v1/content/${encodeURIComponent(slug)}/uploads/from-url`, { url }).then(
    (stored) => settle(view, id, `![${alt}](${hrefBetween(path, stored.path)})`, null),
    (error: unknown) => {
      if (error instanceof ApiError && error.status === 403) {
        remoteImagesOff.add(slug);
        settle(view, id, fallback, null);
      } else settle(view, id, fallback, `Kept the link to ${name}: ${errorText(error)}`);
    },
  );
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
    uploads,
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
