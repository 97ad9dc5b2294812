import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, contentUrl } from '../api/client';
import type { Page } from '../../../src/contract/pages';
import { Dialog } from '../ui/dialog';
import { Field } from '../ui/field';
import { FormError } from '../ui/form-error';
import { joinPath } from './tree-model';
import { pageKeys, treeKeys } from '../api/query-keys';
import { keepPageExtension } from '../../../src/domain/page-extensions';

interface MoveDialogProps {
  slug: string;
  path: string;
  folders: string[];
  /** "Rename…": the same move, kept in the page's folder, asking only for the file name. */
  rename?: boolean;
  onMoved: (path: string) => void;
  onClose: () => void;
}

/** "Move to…": a new folder and file name for the page; the server keeps its id and rewrites links. */
export function MoveDialog({ slug, path, folders, rename = false, onMoved, onClose }: MoveDialogProps) {
  const queryClient = useQueryClient();
  const folderId = useId();
  const parts = path.split('/');
  const [folder, setFolder] = useState(parts.slice(0, -1).join('/'));
  const move = useMutation({
    mutationFn: (newPath: string) => api<Page>('PATCH', contentUrl(slug, path), { new_path: newPath }),
    onSuccess: async (page) => {
      await queryClient.invalidateQueries({ queryKey: treeKeys.all(slug) });
      queryClient.removeQueries({ queryKey: pageKeys.byPath(slug, path) });
      onMoved(page.path);
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    let name = String(new FormData(event.currentTarget).get('name')).trim();
    name = keepPageExtension(name, path);
    move.mutate(joinPath(folder, name));
  };
  return (
    <Dialog title={rename ? 'Rename page' : 'Move to…'} onClose={onClose}>
      <form onSubmit={submit} className="stack">
        {!rename && (
          <div className="field">
            <label htmlFor={folderId}>Folder</label>
            <select id={folderId} value={folder} onChange={(e) => setFolder(e.target.value)}>
              <option value="">Top level</option>
              {folders.map((f) => (
                <option key={f} value={f}>
                  {f}
                </option>
              ))}
            </select>
          </div>
        )}
        <Field
          label="File name"
          name="name"
          defaultValue={parts.at(-1)}
          hint={rename ? 'The title stays as it is; change it under Details…' : undefined}
          required
          autoFocus
        />
        <FormError error={move.error} />
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={move.isPending}>
            {rename ? 'Rename' : 'Move'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
