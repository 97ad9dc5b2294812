import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, contentUrl } from '../api/client';
import { Dialog } from '../ui/dialog';
import { FormError } from '../ui/form-error';
import { pageKeys, treeKeys } from '../api/query-keys';

interface DeleteDialogProps {
  slug: string;
  path: string;
  title: string;
  onDeleted: () => void;
  onClose: () => void;
}

/** Asks before deleting a page; its history stays in git and the activity feed. */
export function DeleteDialog({ slug, path, title, onDeleted, onClose }: DeleteDialogProps) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => api('DELETE', contentUrl(slug, path)),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: treeKeys.all(slug) });
      queryClient.removeQueries({ queryKey: pageKeys.byPath(slug, path) });
      onDeleted();
    },
  });
  return (
    <Dialog title="Delete this page?" onClose={onClose}>
      <p>
        “{title}” (<code>{path}</code>) will be removed from the workspace.
      </p>
      <FormError error={remove.error} />
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose} autoFocus>
          Cancel
        </button>
        <button
          type="button"
          className="button danger"
          onClick={() => remove.mutate()}
          disabled={remove.isPending}
        >
          Delete page
        </button>
      </div>
    </Dialog>
  );
}
