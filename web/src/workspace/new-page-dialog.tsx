import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, contentUrl } from '../api/client';
import type { List } from '../api/types';
import type { Page } from '../../../src/contract/pages';
import { Dialog } from '../ui/dialog';
import { Field } from '../ui/field';
import { FormError } from '../ui/form-error';
import { fileNameFor, joinPath } from './tree-model';
import { pageFromTemplate, type TemplateSummary } from './templates';
import { pageKeys, treeKeys } from '../api/query-keys';

interface NewPageDialogProps {
  slug: string;
  folders: string[];
  initialFolder: string;
  /** A folder is a new path segment with an index page inside. */
  kind: 'page' | 'folder';
  onCreated: (path: string) => void;
  onClose: () => void;
}

/**
 * Creates a page (or a folder with its first page) through the content API, blank or
 * filled from one of the templates of `GET /api/v1/templates`.
 */
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
  const templateId = useId();
  const [folder, setFolder] = useState(initialFolder);
  const [template, setTemplate] = useState('');
  const templates = useQuery({
    queryKey: pageKeys.templates(),
    queryFn: () => api<List<TemplateSummary>>('GET', '/api/v1/templates').then((r) => r.data),
    staleTime: Infinity,
  });
  const create = useMutation({
    mutationFn: async ({ path, title }: { path: string; title: string }) =>
      api<Page>(
        'POST',
        contentUrl(slug, path),
        template ? await pageFromTemplate(template, title) : { title },
      ),
    onSuccess: async (page) => {
      await queryClient.invalidateQueries({ queryKey: treeKeys.all(slug) });
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
        {kind === 'page' && (
          <div className="field">
            <label htmlFor={templateId}>Template</label>
            <select id={templateId} value={template} onChange={(e) => setTemplate(e.target.value)}>
              <option value="">Blank</option>
              {templates.data?.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
            {template && (
              <p className="hint">{templates.data?.find((t) => t.id === template)?.description}</p>
            )}
          </div>
        )}
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
