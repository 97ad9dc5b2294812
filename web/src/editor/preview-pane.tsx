import { Compartment, StateEffect } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { useEffect, useRef, useState } from 'react';
import type { PagePreview } from '../../../src/contract/pages';
import { api } from '../api/client';
import { errorText } from '../ui/form-error';
import { SiteFrame } from '../ui/site-frame';
import { editorViewNear } from './find-editor-view';
import type { PreviewProps } from './preview-props';

/** How long typing must pause before the preview is asked for again. */
const DEBOUNCE_MS = 300;

/** The page file the preview renders: the title and description the page header shows, then the body. */
function pageFile({ title, description }: PreviewProps, body: string): string {
  // JSON strings are valid YAML scalars, so any title survives without a YAML library.
  const lines = [`title: ${JSON.stringify(title)}`];
  if (description) lines.push(`description: ${JSON.stringify(description)}`);
  return `---\n${lines.join('\n')}\n---\n\n${body}`;
}

/**
 * The open page as the published site will show it: rendered by the server with the site's
 * renderer and theme, refreshed a moment after typing stops.
 */
export default function PreviewPane(props: PreviewProps) {
  const { slug, path, title, description } = props;
  const root = useRef<HTMLElement>(null);
  const [preview, setPreview] = useState<PagePreview | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const view = editorViewNear(root.current);
    if (!view) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let latest = 0;
    const refresh = () => {
      const asked = ++latest;
      const content = pageFile({ slug, path, title, description }, view.state.doc.toString());
      api<PagePreview>('POST', `/api/v1/content/${encodeURIComponent(slug)}/preview`, { path, content }).then(
        (answer) => {
          if (asked !== latest) return;
          setPreview(answer);
          setError(null);
        },
        (failure: unknown) => {
          if (asked === latest) setError(errorText(failure));
        },
      );
    };
    refresh();
    const listener = new Compartment();
    const onChange = EditorView.updateListener.of((update) => {
      if (!update.docChanged) return;
      clearTimeout(timer);
      timer = setTimeout(refresh, DEBOUNCE_MS);
    });
    view.dispatch({ effects: StateEffect.appendConfig.of(listener.of(onChange)) });
    return () => {
      clearTimeout(timer);
      latest += 1;
      // The editor may already be gone when the page closes.
      if (view.dom.isConnected) view.dispatch({ effects: listener.reconfigure([]) });
    };
  }, [slug, path, title, description]);

  return (
    <section className="preview-pane" aria-label="Preview" ref={root}>
      {error && (
        <p className="banner warning" role="alert">
          The preview could not be updated: {error}
        </p>
      )}
      {preview && (
        <SiteFrame
          className="preview-frame"
          title="Preview"
          html={preview.html}
          stylesheet={preview.stylesheet}
        />
      )}
    </section>
  );
}
