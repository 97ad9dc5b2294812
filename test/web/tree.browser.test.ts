/**
 * The workspace screen's page tree in headless Chromium against a real server:
 * keyboard navigation per the WAI-ARIA tree pattern, "Move to…" and delete
 * with a confirmation changing the files, and pages created elsewhere
 * appearing live.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { describeInChromium, useBrowserApp } from '../helpers/browser.js';
import { editor } from './editor-helpers.js';

describeInChromium('web app: the page tree', () => {
  const app = useBrowserApp({ owner: true });

  beforeAll(async () => {
    await app.createPage('guides/install.md', { title: 'Install', body: 'Install it.\n' });
    await app.createPage('guides/upgrade.md', { title: 'Upgrade', body: 'Upgrade it.\n' });
  });

  const onDisk = (p: string) => existsSync(path.join(app.server.dataDir, 'workspaces', app.ws.id, p));

  it('moves through the tree with the keyboard and opens a page with Enter', async () => {
    const { context, page } = await app.openWorkspace();
    const tree = page.getByRole('tree', { name: 'Pages' });
    const folder = tree.getByRole('treeitem', { name: 'guides' });
    await folder.waitFor();
    expect(await folder.getAttribute('aria-expanded')).toBe('false');
    await folder.focus();
    await page.keyboard.press('ArrowRight');
    await tree.getByRole('treeitem', { name: 'Install' }).waitFor();
    expect(await folder.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Upgrade');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${app.server.url}/w/${app.ws.slug}/guides/upgrade.md`);
    await editor(page).waitFor();
    await page.locator('.cm-line', { hasText: 'Upgrade it.' }).waitFor();
    // Left goes back to the folder, Home to the first row.
    await tree.getByRole('treeitem', { name: 'Upgrade' }).focus();
    await page.keyboard.press('ArrowLeft');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toMatch(/guides$/);
    await context.close();
  }, 90_000);

  it('moves a page with "Move to…" and deletes one after confirming', async () => {
    await app.createPage('scratch.md', { title: 'Scratch', body: 'Temporary.\n' });
    await app.createPage('notes.md', { title: 'Notes', body: 'Notes.\n' });
    const { context, page } = await app.openWorkspace('notes.md');
    await editor(page).waitFor();

    await page.getByRole('button', { name: 'Move…' }).click();
    const move = page.getByRole('dialog', { name: 'Move to…' });
    await move.getByLabel('Folder').selectOption('guides');
    await move.getByLabel('File name').fill('release-notes.md');
    await move.getByRole('button', { name: 'Move' }).click();
    await page.waitForURL(`${app.server.url}/w/${app.ws.slug}/guides/release-notes.md`);
    expect(onDisk('guides/release-notes.md')).toBe(true);
    expect(onDisk('notes.md')).toBe(false);

    await page.getByRole('treeitem', { name: 'Scratch' }).click();
    await page.waitForURL(/scratch\.md$/);
    await page.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this page?' });
    await confirm.getByRole('button', { name: 'Delete page' }).click();
    await page.waitForURL(`${app.server.url}/w/${app.ws.slug}`);
    expect(onDisk('scratch.md')).toBe(false);
    await expect.poll(() => page.getByRole('treeitem', { name: 'Scratch' }).count()).toBe(0);
    await context.close();
  }, 90_000);

  it('shows a page created in another session without a reload', async () => {
    const { context, page } = await app.openWorkspace();
    await page.getByRole('tree', { name: 'Pages' }).waitFor();
    await new Promise((r) => setTimeout(r, 1500));
    await app.createPage('from-elsewhere.md', { title: 'From elsewhere' });
    await page.getByRole('treeitem', { name: 'From elsewhere' }).waitFor({ timeout: 20_000 });
    await context.close();
  }, 90_000);
});
