import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import type { Workspace } from '../api/types';
import { Dialog } from '../ui/dialog';
import { Field } from '../ui/field';
import { FormError } from '../ui/form-error';
import { workspaceKeys } from '../api/query-keys';

/** "Platform docs" → "platform-docs": what the URL name is until the writer changes it. */
export const slugFor = (name: string): string =>
  name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);

interface NewWorkspaceDialogProps {
  onCreated: (slug: string) => void;
  onClose: () => void;
}

/** A Super Admin creates a workspace (POST /api/v1/workspaces), then lands in it. */
export function NewWorkspaceDialog({ onCreated, onClose }: NewWorkspaceDialogProps) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [slug, setSlug] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (body: { name: string; slug: string }) => api<Workspace>('POST', '/api/v1/workspaces', body),
    onSuccess: async (workspace) => {
      await queryClient.invalidateQueries({ queryKey: workspaceKeys.list() });
      onCreated(workspace.slug);
    },
  });
  const shownSlug = slug ?? slugFor(name);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    create.mutate({ name: name.trim(), slug: shownSlug });
  };
  return (
    <Dialog title="New workspace" onClose={onClose}>
      <form onSubmit={submit} className="stack">
        <Field
          label="Name"
          name="name"
          required
          autoFocus
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <Field
          label="URL name"
          name="slug"
          required
          pattern="[a-z0-9]+(-[a-z0-9]+)*"
          hint="Lower-case letters, digits and dashes; used in links such as /w/platform-docs."
          value={shownSlug}
          onChange={(e) => setSlug(e.target.value)}
        />
        <FormError error={create.error} />
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={create.isPending}>
            Create workspace
          </button>
        </div>
      </form>
    </Dialog>
  );
}
