import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type RefObject } from 'react';
import { api, contentUrl } from '../api/client';
import type { Page } from '../../../src/contract/pages';
import { Dialog } from '../ui/dialog';
import { Field } from '../ui/field';
import { FormError } from '../ui/form-error';
import type { PageSession } from './page-session';
import { treeKeys } from '../api/query-keys';

interface DetailsFormProps {
  slug: string;
  page: Page;
  sessionRef: RefObject<PageSession | null>;
  onSaved: (page: Page) => void;
  onClose: () => void;
}

const tagList = (text: string) => [
  ...new Set(
    text
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
  ),
];

/**
 * The page's title, description and tags, saved into its frontmatter. Only the
 * keys that changed are sent, and the server changes only their values in the
 * author's YAML.
 */
export function DetailsForm({ slug, page, sessionRef, onSaved, onClose }: DetailsFormProps) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const title = String(data.get('title')).trim();
    const description = String(data.get('description')).trim();
    const tags = tagList(String(data.get('tags')));
    const frontmatter: Record<string, unknown> = {};
    if (title !== page.title) frontmatter.title = title;
    if (description !== (page.description ?? '')) frontmatter.description = description || null;
    if (JSON.stringify(tags) !== JSON.stringify(page.tags ?? []))
      frontmatter.tags = tags.length ? tags : null;
    const session = sessionRef.current;
    if (Object.keys(frontmatter).length === 0 || !session) return onClose();
    setBusy(true);
    try {
      const saved = await api<Page>('PUT', contentUrl(slug, page.path), {
        lastKnownHash: session.baseHash,
        frontmatter,
      });
      await queryClient.invalidateQueries({ queryKey: treeKeys.all(slug) });
      onSaved(saved);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog title="Page details" onClose={onClose}>
      <form onSubmit={(e) => void submit(e)} className="stack">
        <Field label="Title" name="title" defaultValue={page.title} required autoFocus />
        <Field label="Description" name="description" defaultValue={page.description ?? ''} />
        <Field
          label="Tags"
          name="tags"
          defaultValue={(page.tags ?? []).join(', ')}
          hint="Separated by commas."
        />
        <FormError error={error} />
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={busy}>
            Save details
          </button>
        </div>
      </form>
    </Dialog>
  );
}
