import { useState, type RefObject } from 'react';
import { api, contentUrl } from '../api/client';
import type { Page } from '../../../src/contract/pages';
import { errorText } from '../ui/form-error';
import type { PageSession } from './page-session';

interface PublishedSwitchProps {
  slug: string;
  path: string;
  initial: boolean;
  sessionRef: RefObject<PageSession | null>;
  onChange: (published: boolean) => void;
}

/**
 * The page's "Published" switch: sets `status` in its frontmatter (the server
 * changes just that value in the author's YAML) and leaves the body alone.
 */
export function PublishedSwitch({ slug, path, initial, sessionRef, onChange }: PublishedSwitchProps) {
  const [published, setPublished] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const toggle = async (next: boolean) => {
    const session = sessionRef.current;
    if (!session) return;
    setBusy(true);
    setError(null);
    try {
      const page = await api<Page>('PUT', contentUrl(slug, path), {
        lastKnownHash: session.baseHash,
        frontmatter: { status: next ? 'published' : 'draft' },
      });
      const now = page.status === 'published';
      setPublished(now);
      onChange(now);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className="switch">
      <label>
        <input
          type="checkbox"
          role="switch"
          checked={published}
          disabled={busy}
          onChange={(e) => void toggle(e.target.checked)}
        />
        Published
      </label>
      {error && (
        <span role="alert" className="switch-error">
          {error}
        </span>
      )}
    </span>
  );
}
