import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, contentUrl } from '../api/client';
import type { Page } from '../api/types';
import { Dialog } from '../ui/dialog';
import { Field } from '../ui/field';
import { FormError } from '../ui/form-error';
import { fileNameFor, joinPath } from './tree-model';

interface NewPageDialogProps {
  slug: string;
  folders: string[];
  initialFolder: string;
  /** A folder is a new path segment with an index page inside. */
  kind: 'page' | 'folder';
  onCreated: (path: string) => void;
  onClose: () => void;
}

/** Creates a page (or a folder with its first page) through the content API. */
export function NewPageDialog({
  slug,
  folders,
  initialFolder,
  kind,
  onCreated,
  onClose,
}: NewPageDialogProps) {
  const queryClient = useQueryClient();
  const folderId = useId();
  const [folder, setFolder] = useState(initialFolder);
  const create = useMutation({
    mutationFn: ({ path, title }: { path: string; title: string }) =>
      api<Page>('POST', contentUrl(slug, path), { title }),
    onSuccess: async (page) => {
      await queryClient.invalidateQueries({ queryKey: ['tree', slug] });
      onCreated(page.path);
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const title = String(new FormData(event.currentTarget).get('title')).trim();
    const path =
      kind === 'folder'
        ? joinPath(joinPath(folder, fileNameFor(title).replace(/\.md$/, '')), 'index.md')
        : joinPath(folder, fileNameFor(title));
    create.mutate({ path, title });
  };
  return (
    <Dialog title={kind === 'folder' ? 'New folder' : 'New page'} onClose={onClose}>
      <form onSubmit={submit} className="stack">
        <Field label={kind === 'folder' ? 'Folder name' : 'Title'} name="title" required autoFocus />
        <div className="field">
          <label htmlFor={folderId}>Inside</label>
          <select id={folderId} value={folder} onChange={(e) => setFolder(e.target.value)}>
            <option value="">Top level</option>
            {folders.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
        </div>
        <FormError error={create.error} />
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={create.isPending}>
            {kind === 'folder' ? 'Create folder' : 'Create page'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
