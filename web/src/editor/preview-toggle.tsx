import { lazy, Suspense } from 'react';
import { Loading } from '../ui/loading';
import '../styles/preview.css';
import type { PreviewProps } from './preview-props';

// Its own chunk: most visits never open the preview.
const LazyPreviewPane = lazy(() => import('./preview-pane'));

/** The "Preview" toggle of the page header. */
export function PreviewToggle({ pressed, onToggle }: { pressed: boolean; onToggle: () => void }) {
  return (
    <button type="button" className="button small preview-toggle" aria-pressed={pressed} onClick={onToggle}>
      Preview
    </button>
  );
}

/** The preview beside the editor (on narrow screens, instead of it), loaded when first opened. */
export function PreviewPane(props: PreviewProps) {
  return (
    <Suspense fallback={<Loading label="Loading the preview…" />}>
      <LazyPreviewPane {...props} />
    </Suspense>
  );
}
