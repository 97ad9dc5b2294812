/**
 * "Edit this page" and "Last updated … by" on the published site: the `edit_url` setting
 * (validated, round-tripped through the settings API, filled with the page's path), the
 * web app's editor for members who may edit, no link otherwise, and the last author's name
 * from Folio's own edits or from git, with a setting to leave it out.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import type { TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { createPage, createWorkspace, grantRole, type TestWorkspace } from '../helpers/workspace-access.js';
import { get, setSettings, startPublishing } from './publishing-helpers.js';

const EDIT = /<a href="([^"]*)">Edit this page<\/a>/;

describe('Edit this page and Last updated', () => {
  let server: TestServer;
  let owner: TestUser;
  let editor: TestUser;
  let viewer: TestUser;
  let ws: TestWorkspace;

  beforeAll(async () => {
    server = await startPublishing();
    owner = await registerUser(server, { name: 'Ada Owner' });
    editor = await registerUser(server);
    viewer = await registerUser(server);
    ws = await createWorkspace(server, owner, 'fixable');
    await grantRole(server, ws, editor, 'editor');
    await grantRole(server, ws, viewer, 'viewer');
    await createPage(server, owner, ws, 'guides/setup.md', {
      title: 'Setup',
      body: 'Install it.\n',
      publish: true,
    });
    await setSettings(server, owner, ws, { public_site: true });
  });

  afterAll(() => server.close());

  it('round-trips edit_url through the settings API and refuses a template without {path}', async () => {
    const url = `/api/v1/workspaces/${ws.id}/admin/settings`;
    const before = await server.request('GET', url, { token: owner.token });
    expect(before.body).toMatchObject({
      edit_url: null,
      show_last_updated_author: true,
      suggested_edit_url: null,
    });
    const bad = await server.request('PUT', url, {
      token: owner.token,
      body: { edit_url: 'https://github.com/acme/docs/edit/main/' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('VALIDATION_ERROR');
    expect(bad.body.message).toContain('{path}');
    const script = await server.request('PUT', url, {
      token: owner.token,
      body: { edit_url: 'javascript:x//{path}' },
    });
    expect(script.status).toBe(400);
    const refused = await server.request('PUT', url, {
      token: editor.token,
      body: { edit_url: 'https://github.com/acme/docs/edit/main/{path}' },
    });
    expect(refused.status).toBe(403);
    const saved = await setSettings(server, owner, ws, {
      edit_url: 'https://github.com/acme/docs/edit/main/{path}',
    });
    expect(saved.edit_url).toBe('https://github.com/acme/docs/edit/main/{path}');
    expect((await server.request('GET', url, { token: owner.token })).body.edit_url).toBe(
      'https://github.com/acme/docs/edit/main/{path}',
    );
  });

  it('links readers to edit_url with {path} filled in, and members who may edit to the editor', async () => {
    await setSettings(server, owner, ws, { edit_url: 'https://github.com/acme/docs/edit/main/{path}' });
    const anonymous = await get(server, '/p/fixable/guides/setup');
    expect(EDIT.exec(anonymous.text)?.[1]).toBe('https://github.com/acme/docs/edit/main/guides/setup.md');
    expect(anonymous.headers.get('cache-control')).toBe('public, max-age=300');
    const asViewer = await get(server, '/p/fixable/guides/setup', { cookie: `folio_access=${viewer.token}` });
    expect(EDIT.exec(asViewer.text)?.[1]).toBe('https://github.com/acme/docs/edit/main/guides/setup.md');
    const asEditor = await get(server, '/p/fixable/guides/setup', { cookie: `folio_access=${editor.token}` });
    expect(EDIT.exec(asEditor.text)?.[1]).toBe('/w/fixable/guides/setup.md');
    // The editor's copy is theirs alone: no shared cache may keep it.
    expect(asEditor.headers.get('cache-control')).toBe('private, no-cache');
    expect(asEditor.headers.get('etag')).not.toBe(anonymous.headers.get('etag'));
    // Anonymous readers still get the public copy afterwards.
    expect(EDIT.exec((await get(server, '/p/fixable/guides/setup')).text)?.[1]).toContain('github.com');

    await setSettings(server, owner, ws, { edit_url: null });
    expect((await get(server, '/p/fixable/guides/setup')).text).not.toContain('Edit this page');
    const stillEditor = await get(server, '/p/fixable/guides/setup', {
      cookie: `folio_access=${editor.token}`,
    });
    expect(EDIT.exec(stillEditor.text)?.[1]).toBe('/w/fixable/guides/setup.md');
  });

  it('names the last author beside the date, from Folio or from git, unless turned off', async () => {
    const page = await get(server, '/p/fixable/guides/setup');
    expect(page.text).toMatch(
      /Last updated <time [^>]+>[^<]+<\/time> by <span class="last-author">Ada Owner<\/span>/,
    );

    // A page that arrived through git: its commit's author.
    const root = path.join(server.dataDir, 'workspaces', ws.id);
    fs.writeFileSync(
      path.join(root, 'pushed.md'),
      '---\ntitle: Pushed\nstatus: published\n---\n\nFrom git.\n',
    );
    execFileSync('git', ['add', 'pushed.md'], { cwd: root });
    execFileSync(
      'git',
      ['-c', 'user.name=Grace Git', '-c', 'user.email=g@example.com', 'commit', '-qm', 'add'],
      {
        cwd: root,
      },
    );
    await server.request('GET', `/api/v1/content/${ws.slug}/pushed.md`, { token: owner.token });
    const pushed = await eventually(async () => {
      const res = await get(server, '/p/fixable/pushed');
      return res.status === 200 && res.text;
    });
    expect(pushed).toContain('by <span class="last-author">Grace Git</span>');

    await setSettings(server, owner, ws, { show_last_updated_author: false });
    const off = await get(server, '/p/fixable/guides/setup');
    expect(off.text).toContain('Last updated <time');
    expect(off.text).not.toContain('last-author');
  });
});
