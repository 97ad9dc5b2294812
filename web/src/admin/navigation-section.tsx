import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api } from '../api/client';
import type { Workspace } from '../api/types';
import type { NavigationInfo, WorkspaceSettings } from '../../../src/contract/settings';
import { FormError } from '../ui/form-error';
import { Loading } from '../ui/loading';
import { adminKeys, workspaceKeys } from '../api/query-keys';

/** The answer, with the status pages without one take. */
type NavigationAnswer = NavigationInfo & { default_page_status: 'draft' | 'published' };

const SOURCES: Record<NavigationInfo['nav_source'], string> = {
  auto: 'Follow the docs tool whose files the workspace has',
  folio: 'Folders and page order (Folio)',
  mkdocs: 'MkDocs: mkdocs.yml nav',
  docusaurus: 'Docusaurus: sidebars and _category_ files',
  gitbook: 'GitBook: SUMMARY.md',
};
const NAMES: Record<string, string> = {
  folio: 'folders and page order',
  mkdocs: 'MkDocs',
  docusaurus: 'Docusaurus',
  gitbook: 'GitBook',
  obsidian: 'an Obsidian vault',
};

/** Which navigation the published site follows (GET …/admin/navigation, `nav_source` setting). */
export function NavigationSection({ workspace }: { workspace: Workspace }) {
  const id = useId();
  const queryClient = useQueryClient();
  const url = `/api/v1/workspaces/${workspace.id}/admin/navigation`;
  const info = useQuery({
    queryKey: adminKeys.navigation(workspace.id),
    queryFn: () => api<NavigationAnswer>('GET', url),
  });
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    mutationFn: (settings: Partial<Record<'nav_source' | 'default_page_status', string>>) =>
      api<WorkspaceSettings>('PUT', `/api/v1/workspaces/${workspace.id}/admin/settings`, settings),
    onSuccess: (next) => {
      queryClient.setQueryData(workspaceKeys.settings(workspace.id), next);
      void queryClient.invalidateQueries({ queryKey: adminKeys.navigation(workspace.id) });
      setSaved(true);
    },
  });
  if (info.isPending) return <Loading label="Loading the navigation…" />;
  if (info.isError) return <FormError error={info.error} />;
  const { nav_source, following, detected, findings, default_page_status } = info.data;
  return (
    <section className="account-section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Site navigation</h2>
      <p>
        {detected.length
          ? `Found: ${detected.map((d) => `${NAMES[d.source] ?? d.source} (${d.file})`).join(', ')}. `
          : 'No other docs tool’s files were found. '}
        The sidebar follows <strong>{NAMES[following] ?? following}</strong>.
      </p>
      {findings.map((f) => (
        <p key={f} className="form-error">
          {f}
        </p>
      ))}
      <div className="field">
        <label htmlFor={id}>Navigation to follow</label>
        <select
          id={id}
          value={nav_source}
          disabled={save.isPending}
          onChange={(e) => {
            setSaved(false);
            save.mutate({ nav_source: e.target.value });
          }}
        >
          {Object.entries(SOURCES).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      {detected.length > 0 && (
        <div>
          {default_page_status === 'draft' ? (
            <p>
              Pages whose frontmatter has no <code>status</code> are drafts, and the site does not show them;
              the files of docs tools usually have none.
            </p>
          ) : (
            <p>
              Pages whose frontmatter has no <code>status</code> are published.
            </p>
          )}
          <button
            type="button"
            className="button small"
            disabled={save.isPending}
            onClick={() => {
              setSaved(false);
              save.mutate({ default_page_status: default_page_status === 'draft' ? 'published' : 'draft' });
            }}
          >
            {default_page_status === 'draft'
              ? 'Publish pages without a status'
              : 'Make pages without a status drafts'}
          </button>
        </div>
      )}
      <FormError error={save.error} />
      {saved && (
        <p role="status" className="hint">
          Navigation saved
        </p>
      )}
    </section>
  );
}
