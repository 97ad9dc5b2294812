/**
 * The workspace screen's page tree in headless Chromium against a real server:
 * keyboard navigation per the WAI-ARIA tree pattern, "Move to…" and delete
 * with a confirmation changing the files, and pages created elsewhere
 * appearing live.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  chromiumAvailable,
  CHROMIUM,
  launchChromium,
  signedInTab,
  startAppServer,
} from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';
import { firstWorkspace, registerUser, type TestUser } from '../helpers/users.js';
import { createPage, type TestWorkspace } from '../helpers/workspace-access.js';
import { editor } from './editor-helpers.js';

if (!chromiumAvailable) {
  console.warn(`\n[web tree] SKIPPED: ${CHROMIUM} not found. Install it with: apt-get install -y chromium\n`);
}

describe.skipIf(!chromiumAvailable)('web app: the page tree', () => {
  let server: TestServer;
  let browser: Browser;
  let owner: TestUser;
  let ws: TestWorkspace;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startAppServer(), launchChromium()]);
    owner = await registerUser(server);
    ws = await firstWorkspace(server, owner);
    await createPage(server, owner, ws, 'guides/install.md', { title: 'Install', body: 'Install it.\n' });
    await createPage(server, owner, ws, 'guides/upgrade.md', { title: 'Upgrade', body: 'Upgrade it.\n' });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const onDisk = (p: string) => existsSync(path.join(server.dataDir, 'workspaces', ws.id, p));

  it('moves through the tree with the keyboard and opens a page with Enter', async () => {
    const { context, page } = await signedInTab(browser, server, owner, `/w/${ws.slug}`);
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
    await page.waitForURL(`${server.url}/w/${ws.slug}/guides/upgrade.md`);
    await editor(page).waitFor();
    await page.locator('.cm-line', { hasText: 'Upgrade it.' }).waitFor();
    // Left goes back to the folder, Home to the first row.
    await tree.getByRole('treeitem', { name: 'Upgrade' }).focus();
    await page.keyboard.press('ArrowLeft');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toMatch(/guides$/);
    await context.close();
  }, 90_000);

  it('moves a page with "Move to…" and deletes one after confirming', async () => {
    await createPage(server, owner, ws, 'scratch.md', { title: 'Scratch', body: 'Temporary.\n' });
    await createPage(server, owner, ws, 'notes.md', { title: 'Notes', body: 'Notes.\n' });
    const { context, page } = await signedInTab(browser, server, owner, `/w/${ws.slug}/notes.md`);
    await editor(page).waitFor();

    await page.getByRole('button', { name: 'Move…' }).click();
    const move = page.getByRole('dialog', { name: 'Move to…' });
    await move.getByLabel('Folder').selectOption('guides');
    await move.getByLabel('File name').fill('release-notes.md');
    await move.getByRole('button', { name: 'Move' }).click();
    await page.waitForURL(`${server.url}/w/${ws.slug}/guides/release-notes.md`);
    expect(onDisk('guides/release-notes.md')).toBe(true);
    expect(onDisk('notes.md')).toBe(false);

    await page.getByRole('treeitem', { name: 'Scratch' }).click();
    await page.waitForURL(/scratch\.md$/);
    await page.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this page?' });
    await confirm.getByRole('button', { name: 'Delete page' }).click();
    await page.waitForURL(`${server.url}/w/${ws.slug}`);
    expect(onDisk('scratch.md')).toBe(false);
    await expect.poll(() => page.getByRole('treeitem', { name: 'Scratch' }).count()).toBe(0);
    await context.close();
  }, 90_000);

  it('shows a page created in another session without a reload', async () => {
    const { context, page } = await signedInTab(browser, server, owner, `/w/${ws.slug}`);
    await page.getByRole('tree', { name: 'Pages' }).waitFor();
    await new Promise((r) => setTimeout(r, 1500));
    await createPage(server, owner, ws, 'from-elsewhere.md', { title: 'From elsewhere' });
    await page.getByRole('treeitem', { name: 'From elsewhere' }).waitFor({ timeout: 20_000 });
    await context.close();
  }, 90_000);
});
