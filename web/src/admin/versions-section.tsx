import { useMutation } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { api } from '../api/client';
import type { Workspace } from '../api/types';
import type { Version } from '../../../src/contract/versions';
import { ConfirmButton } from '../ui/confirm-button';
import { Field } from '../ui/field';
import { FormError } from '../ui/form-error';
import { Loading } from '../ui/loading';
import { shortDate, useWorkspaceList } from './workspace-list';

/**
 * Versions (…/versions): freeze the published pages under a slug, choose the one readers
 * see first, open one on the site, delete one after a confirmation.
 */
export function VersionsSection({ workspace }: { workspace: Workspace }) {
  const { url, list: versions, refresh } = useWorkspaceList<Version>(workspace, 'versions');
  const create = useMutation({
    mutationFn: (body: { slug: string; name: string }) => api<Version>('POST', url, body),
    onSuccess: refresh,
  });
  const makeDefault = useMutation({
    mutationFn: (slug: string) => api<Version>('PUT', `${url}/${encodeURIComponent(slug)}/default`),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (slug: string) => api<void>('DELETE', `${url}/${encodeURIComponent(slug)}`),
    onSuccess: refresh,
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    create.mutate({ slug: String(form.get('slug')).trim(), name: String(form.get('name')).trim() });
    event.currentTarget.reset();
  };
  const site = `/p/${encodeURIComponent(workspace.slug)}`;
  return (
    <>
      <form className="account-section" onSubmit={submit} aria-labelledby="new-version-heading">
        <h2 id="new-version-heading">New version</h2>
        <p className="hint">Freezes the pages published now; later edits go to the live site only.</p>
        <div className="inline-form">
          <Field label="Version slug" name="slug" required placeholder="v1" pattern="[A-Za-z0-9._-]+" />
          <Field label="Version name" name="name" required placeholder="Version 1" />
          <button type="submit" className="button primary" disabled={create.isPending}>
            Create version
          </button>
        </div>
        <FormError error={create.error} />
      </form>
      <section className="account-section" aria-labelledby="versions-heading">
        <h2 id="versions-heading">Versions</h2>
        {versions.isPending && <Loading label="Loading the versions…" />}
        <FormError error={versions.error ?? makeDefault.error ?? remove.error} />
        {versions.data?.length === 0 && <p className="hint">No version yet: readers see the live pages.</p>}
        {versions.data && versions.data.length > 0 && (
          <ul className="item-list">
            {versions.data.map((version) => (
              <li key={version.slug} className="item">
                <div className="item-text">
                  <strong>
                    {version.name} {version.is_default && <span className="badge">Default</span>}
                  </strong>
                  <span className="hint">
                    {version.slug} · {version.page_count} {version.page_count === 1 ? 'page' : 'pages'} ·
                    created {shortDate(version.created_at)}
                  </span>
                </div>
                <div className="item-actions">
                  <a
                    className="button small ghost"
                    href={`${site}/v/${encodeURIComponent(version.slug)}/`}
                    target="_blank"
                    rel="noreferrer"
                  >
                    Open on site
                  </a>
                  {!version.is_default && (
                    <button
                      type="button"
                      className="button small"
                      aria-label={`Make ${version.name} the default`}
                      disabled={makeDefault.isPending}
                      onClick={() => makeDefault.mutate(version.slug)}
                    >
                      Make default
                    </button>
                  )}
                  <ConfirmButton
                    small
                    label="Delete…"
                    ariaLabel={`Delete ${version.name}…`}
                    confirmLabel={`Delete ${version.name}`}
                    busy={remove.isPending}
                    onConfirm={() => remove.mutate(version.slug)}
                  />
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
