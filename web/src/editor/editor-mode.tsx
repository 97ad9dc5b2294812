import { Compartment, type Extension } from '@codemirror/state';
import { type EditorView, keymap } from '@codemirror/view';
import { livePreview } from './live-preview';

/** How the editor shows the page: formatted (`live`, the default) or as raw Markdown (`source`). */
export type EditorMode = 'live' | 'source';

const keyOf = (userId: string) => `folio:editor-mode:${userId}`;

/**
 * The writer's last choice on this device, per user (there is no server-side preference
 * store): localStorage under `folio:editor-mode:<user id>`.
 */
export function loadMode(userId: string | undefined): EditorMode {
  try {
    return localStorage.getItem(keyOf(userId ?? '')) === 'source' ? 'source' : 'live';
  } catch {
    return 'live';
  }
}

export function saveMode(userId: string | undefined, mode: EditorMode): void {
  try {
    localStorage.setItem(keyOf(userId ?? ''), mode);
  } catch {
    // Storage full or blocked: the choice lasts for this page only.
  }
}

const modeCompartment = new Compartment();

/**
 * The mode's extensions in a compartment (so switching reconfigures the view and never
 * touches the document) and Ctrl/Cmd+E, which asks for the other mode.
 */
export function editorModeExtension(mode: EditorMode, onToggle: () => void): Extension {
  return [
    modeCompartment.of(mode === 'live' ? livePreview() : []),
    keymap.of([
      {
        key: 'Mod-e',
        preventDefault: true,
        run: () => {
          onToggle();
          return true;
        },
      },
    ]),
  ];
}

/** Shows the page in `mode`: only decorations change, not one byte of the text. */
export function setEditorMode(view: EditorView, mode: EditorMode): void {
  view.dispatch({ effects: modeCompartment.reconfigure(mode === 'live' ? livePreview() : []) });
}

/** The "Source" switch of the page header: pressed when the raw Markdown is shown. */
export function SourceToggle({ mode, onToggle }: { mode: EditorMode; onToggle: () => void }) {
  return (
    <button
      type="button"
      className="button small source-toggle"
      aria-pressed={mode === 'source'}
      aria-keyshortcuts="Control+E Meta+E"
      title="Show the Markdown source (Ctrl+E)"
      onClick={onToggle}
    >
      Source
    </button>
  );
}
