import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { THEMES, type Workspace } from '../api/types';
import type { WorkspaceSettings } from '../../../src/contract/settings';
import { ConfirmButton } from '../ui/confirm-button';
import { Field } from '../ui/field';
import { FormError } from '../ui/form-error';
import { Loading } from '../ui/loading';
import { NavigationSection } from './navigation-section';
import { ThemePreview } from './theme-preview';
import { workspaceKeys } from '../api/query-keys';

/** The workspace's site and content settings (GET and PUT …/admin/settings). */
export function SettingsSection({ workspace }: { workspace: Workspace }) {
  const url = `/api/v1/workspaces/${workspace.id}/admin/settings`;
  const settings = useQuery({
    queryKey: workspaceKeys.settings(workspace.id),
    queryFn: () => api<WorkspaceSettings>('GET', url),
  });
  // Kept here: the form is remade whenever the stored settings change ("Publish everything").
  const [saved, setSaved] = useState(false);
  if (settings.isPending) return <Loading label="Loading the settings…" />;
  if (settings.isError) return <FormError error={settings.error} />;
  return (
    <>
      <SettingsForm
        key={settings.dataUpdatedAt}
        workspace={workspace}
        initial={settings.data}
        saved={saved}
        onSaved={setSaved}
      />
      <NavigationSection workspace={workspace} />
      <PublishEverything workspace={workspace} />
    </>
  );
}

interface SettingsFormProps {
  workspace: Workspace;
  initial: WorkspaceSettings;
  saved: boolean;
  onSaved: (saved: boolean) => void;
}

function SettingsForm({ workspace, initial, saved, onSaved: setSaved }: SettingsFormProps) {
  const queryClient = useQueryClient();
  const themeId = useId();
  const modeId = useId();
  const [theme, setTheme] = useState(initial.theme);
  const [editUrl, setEditUrl] = useState(initial.edit_url ?? '');
  const suggestion = initial.suggested_edit_url;
  const save = useMutation({
    mutationFn: (body: Partial<WorkspaceSettings>) =>
      api<WorkspaceSettings>('PUT', `/api/v1/workspaces/${workspace.id}/admin/settings`, body),
    onSuccess: (next) => {
      queryClient.setQueryData(workspaceKeys.settings(workspace.id), next);
      setSaved(true);
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setSaved(false);
    save.mutate({
      site_title: String(form.get('site_title')),
      site_description: String(form.get('site_description')),
      public_site: form.get('public_site') === 'on',
      theme: String(form.get('theme')) as WorkspaceSettings['theme'],
      frontmatter_mode: form.get('frontmatter_mode') === 'lenient' ? 'lenient' : 'strict',
      default_version: String(form.get('default_version')).trim() || null,
      edit_url: editUrl.trim() || null,
      show_last_updated_author: form.get('show_last_updated_author') === 'on',
      paste_remote_images: form.get('paste_remote_images') === 'on',
    });
  };
  return (
    <form className="account-section" onSubmit={submit} onChange={() => setSaved(false)}>
      <h2>Published site</h2>
      <Field label="Site title" name="site_title" defaultValue={initial.site_title} maxLength={200} />
      <div className="field">
        <label htmlFor={`${themeId}-description`}>Site description</label>
        <textarea
          id={`${themeId}-description`}
          name="site_description"
          rows={3}
          maxLength={2000}
          defaultValue={initial.site_description}
        />
      </div>
      <label className="checkbox">
        <input type="checkbox" name="public_site" defaultChecked={initial.public_site} />
        Anyone can read the published site (without signing in)
      </label>
      <div className="field">
        <label htmlFor={themeId}>Theme</label>
        <select
          id={themeId}
          name="theme"
          value={theme}
          onChange={(e) => setTheme(e.target.value as WorkspaceSettings['theme'])}
        >
          {THEMES.map((theme) => (
            <option key={theme} value={theme}>
              {theme[0]!.toUpperCase() + theme.slice(1)}
            </option>
          ))}
        </select>
        <ThemePreview workspace={workspace} theme={theme} />
      </div>
      <Field
        label="Default version"
        name="default_version"
        defaultValue={initial.default_version ?? ''}
        hint="The version readers see first; leave empty for the latest."
      />
      <div className="field">
        <label htmlFor={`${themeId}-edit-url`}>Edit URL</label>
        <input
          id={`${themeId}-edit-url`}
          name="edit_url"
          type="url"
          value={editUrl}
          onChange={(e) => setEditUrl(e.target.value)}
          placeholder="https://github.com/acme/docs/edit/main/{path}"
          aria-describedby={`${themeId}-edit-url-hint`}
        />
        <p className="hint" id={`${themeId}-edit-url-hint`}>
          Where &ldquo;Edit this page&rdquo; takes readers who cannot edit in Folio; {'{path}'} is the
          page&rsquo;s file in the repository. Members who may edit go to the editor.
        </p>
        {suggestion && suggestion !== editUrl && (
          <button type="button" className="button" onClick={() => setEditUrl(suggestion)}>
            Use {suggestion}
          </button>
        )}
      </div>
      <label className="checkbox">
        <input
          type="checkbox"
          name="show_last_updated_author"
          defaultChecked={initial.show_last_updated_author}
        />
        Name the last author beside &ldquo;Last updated&rdquo;
      </label>
      <label className="checkbox">
        <input
          type="checkbox"
          name="paste_remote_images"
          defaultChecked={initial.paste_remote_images ?? true}
        />
        Upload the images of pasted web pages and documents (else they stay links to their site)
      </label>
      <div className="field">
        <label htmlFor={modeId}>Frontmatter that does not parse</label>
        <select id={modeId} name="frontmatter_mode" defaultValue={initial.frontmatter_mode}>
          <option value="strict">Strict: hide the page until it is fixed</option>
          <option value="lenient">Lenient: keep the page's last good frontmatter</option>
        </select>
      </div>
      <FormError error={save.error} />
      <div className="dialog-actions">
        {saved && (
          <span role="status" className="hint">
            Settings saved
          </span>
        )}
        <button type="submit" className="button primary" disabled={save.isPending}>
          Save settings
        </button>
      </div>
    </form>
  );
}

/** POST …/publish: every draft published and the site made public, after a confirmation. */
function PublishEverything({ workspace }: { workspace: Workspace }) {
  const queryClient = useQueryClient();
  const publish = useMutation({
    mutationFn: () => api<unknown>('POST', `/api/v1/workspaces/${workspace.id}/publish`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: workspaceKeys.settings(workspace.id) }),
  });
  return (
    <section className="account-section" aria-labelledby="publish-all">
      <h2 id="publish-all">Publish everything</h2>
      <p>Publishes every draft page and makes the site public.</p>
      <FormError error={publish.error} />
      {publish.isSuccess && <p role="status">Every page is published.</p>}
      <div className="item-actions">
        <ConfirmButton
          // Asks again from the start once it has published.
          key={publish.isSuccess ? 'done' : 'ask'}
          tone="primary"
          label="Publish everything…"
          confirmLabel="Yes, publish every page"
          busy={publish.isPending}
          onConfirm={() => publish.mutate()}
        />
      </div>
    </section>
  );
}
