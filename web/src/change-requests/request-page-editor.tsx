import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, ApiError, contentUrl } from '../api/client';
import type { Workspace } from '../api/types';
import type { Page } from '../../../src/contract/pages';
import { FormError } from '../ui/form-error';
import { Loading } from '../ui/loading';
import { useRefreshRequests } from './cr-api';
import { changeRequestKeys } from '../api/query-keys';

/**
 * One page edited inside change request `number`: its text as the request has it (the live
 * page's until first saved there), saved to the request's branch, never to the live page.
 */
export function RequestPageEditor({
  workspace,
  number,
  path,
}: {
  workspace: Workspace;
  number: number;
  path: string;
}) {
  const url = `${contentUrl(workspace.slug, path)}?change_request=${number}`;
  const refresh = useRefreshRequests(workspace);
  const page = useQuery({
    queryKey: changeRequestKeys.page(workspace.id, number, path),
    queryFn: async () => {
      try {
        return await api<Page>('GET', url);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
  });
  if (page.isPending) return <Loading label="Loading the page…" />;
  if (page.error) return <FormError error={page.error} />;
  return (
    <PageText
      url={url}
      workspace={workspace}
      number={number}
      path={path}
      initial={page.data}
      onSaved={refresh}
    />
  );
}

interface PageTextProps {
  url: string;
  workspace: Workspace;
  number: number;
  path: string;
  /** The page as the request has it, or null when it has none there yet. */
  initial: Page | null;
  onSaved: () => unknown;
}

function PageText({ url, workspace, number, path, initial, onSaved }: PageTextProps) {
  const [text, setText] = useState(initial?.content ?? '');
  const [hash, setHash] = useState(initial?.content_hash);
  const [saved, setSaved] = useState(true);
  const save = useMutation({
    mutationFn: () => api<Page>('PUT', url, { body: text, ...(hash ? { lastKnownHash: hash } : {}) }),
    onSuccess: async (written) => {
      setHash(written.content_hash);
      setSaved(true);
      await onSaved();
    },
  });
  const back = `/w/${workspace.slug}/change-requests/${number}`;
  return (
    <>
      <h1>
        Editing {path} in change request #{number}
      </h1>
      <p className="hint">Saved here, this page changes only inside the change request until it is merged.</p>
      <textarea
        className="cr-editor"
        aria-label="Editor"
        value={text}
        rows={18}
        onChange={(e) => {
          setText(e.target.value);
          setSaved(false);
        }}
      />
      <div className="cr-actions">
        <button
          type="button"
          className="button primary"
          disabled={save.isPending}
          onClick={() => save.mutate()}
        >
          Save in change request
        </button>
        <span role="status">{save.isPending ? 'Saving…' : saved ? 'Saved' : 'Unsaved changes'}</span>
        <Link to={back} className="button ghost">
          Back to the change request
        </Link>
      </div>
      <FormError error={save.error} />
    </>
  );
}
