/**
 * Workspaces and a page's history in headless Chromium against a real server: a Super
 * Admin creates a workspace from the top bar and switches between workspaces; the page's
 * activity lists who changed it.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeInChromium, useBrowserApp } from '../helpers/browser.js';
import { editor } from './editor-helpers.js';

describeInChromium('web app: workspaces and page activity', () => {
  const app = useBrowserApp({ owner: { name: 'Ada Writer' } });

  it('creates a workspace from the top bar, lands in it, and switches back', async () => {
    const { context, page } = await app.openWorkspace();
    await page.getByRole('tree', { name: 'Pages' }).waitFor();
    await page.getByRole('button', { name: 'New workspace' }).click();
    const dialog = page.getByRole('dialog', { name: 'New workspace' });
    await dialog.getByLabel('Name', { exact: true }).fill('Platform Docs');
    // The URL name follows the name as it is typed, once React has rendered the keystroke.
    await expect.poll(() => dialog.getByLabel('URL name').inputValue()).toBe('platform-docs');
    await dialog.getByRole('button', { name: 'Create workspace' }).click();
    await page.waitForURL(`${app.server.url}/w/platform-docs`);

    const listed = await app.server.request('GET', '/api/v1/workspaces', { token: app.owner.token });
    const created = listed.body.data.find((w: { slug: string }) => w.slug === 'platform-docs');
    expect(created).toMatchObject({ name: 'Platform Docs', role: 'superadmin' });
    expect(existsSync(path.join(app.server.dataDir, 'workspaces', created.id))).toBe(true);
    const switcher = page.getByRole('combobox', { name: 'Workspace' });
    expect(await switcher.inputValue()).toBe('platform-docs');

    await switcher.selectOption(app.ws.slug);
    await page.waitForURL(`${app.server.url}/w/${app.ws.slug}`);
    await context.close();
  }, 90_000);

  it('refuses a URL name already taken, saying why, and creates nothing', async () => {
    const { context, page } = await app.openWorkspace();
    await page.getByRole('button', { name: 'New workspace' }).click();
    const dialog = page.getByRole('dialog', { name: 'New workspace' });
    await dialog.getByLabel('Name', { exact: true }).fill('Again');
    await dialog.getByLabel('URL name').fill(app.ws.slug);
    await dialog.getByRole('button', { name: 'Create workspace' }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toMatch(/\S/);
    expect(page.url()).toBe(`${app.server.url}/w/${app.ws.slug}`);
    const listed = await app.server.request('GET', '/api/v1/workspaces', { token: app.owner.token });
    expect(listed.body.data.filter((w: { name: string }) => w.name === 'Again')).toEqual([]);
    await context.close();
  }, 90_000);

  it("lists the page's recent activity: who created and edited it", async () => {
    const created = await app.createPage('history.md', { title: 'History', body: 'First.\n' });
    const edit = await app.server.request('PUT', `/api/v1/content/${app.ws.slug}/history.md`, {
      token: app.owner.token,
      body: { body: 'Second.\n', lastKnownHash: created.content_hash },
    });
    expect(edit.status).toBe(200);
    const { context, page } = await app.openWorkspace('history.md');
    await editor(page).waitFor();
    await page.getByText('Activity', { exact: true }).click();
    const entries = page.locator('.activity-list li');
    await expect.poll(() => entries.count()).toBe(2);
    expect(await entries.nth(0).textContent()).toMatch(/^Ada Writer edited the page/);
    expect(await entries.nth(1).textContent()).toMatch(/^Ada Writer created the page/);
    await context.close();
  }, 90_000);
});
