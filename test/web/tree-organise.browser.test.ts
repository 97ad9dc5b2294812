/**
 * Organising the page tree in headless Chromium against a real server: dragging a page
 * between its siblings (the `order` lands in the files) and onto a folder (the file moves,
 * a refused move is undone; a long folder stays virtualised while a page is dragged down it
 * and scrolls near the edge), Alt+ArrowDown, renaming with F2 and from the page header,
 * a new page from a template, and the sidebar of a workspace without pages.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { describeInChromium, signedInTab, useBrowserApp } from '../helpers/browser.js';
import { registerUser } from '../helpers/users.js';
import { createWorkspace, grantRole } from '../helpers/workspace-access.js';
import { editor, fileBytes } from './editor-helpers.js';

describeInChromium('web app: organising the page tree', () => {
  const app = useBrowserApp({ workspace: 'organise' });

  beforeAll(async () => {
    for (const [p, title] of [
      ['order-dnd/alpha.md', 'Alpha'],
      ['order-dnd/beta.md', 'Beta'],
      ['order-dnd/gamma.md', 'Gamma'],
      ['nudge/one.md', 'One'],
      ['nudge/two.md', 'Two'],
      ['nudge/three.md', 'Three'],
      ['archive/old.md', 'Old'],
      ['archive/taken.md', 'Taken here'],
      ['loose.md', 'Loose'],
      ['taken.md', 'Taken'],
      ['rename-me.md', 'Rename me'],
    ]) {
      await app.createPage(p!, { title: title!, body: `${title} body.\n` });
    }
  });

  const onDisk = (p: string) => existsSync(path.join(app.server.dataDir, 'workspaces', app.ws.id, p));
  const orderIn = (p: string) => /^order: (\d+)$/m.exec(fileBytes(app.server, app.ws.id, p).toString())?.[1];
  const tree = (page: Page) => page.getByRole('tree', { name: 'Pages' });
  const row = (page: Page, name: string) => tree(page).getByRole('treeitem', { name, exact: true });
  /** The labels of the rows directly inside the open top-level `folder`, top to bottom. */
  const rowsIn = (page: Page, folder: string) =>
    page.evaluate((name) => {
      const rows = Array.from(document.querySelectorAll<HTMLElement>('[role="treeitem"]')).sort(
        (a, b) => Number(a.dataset.index) - Number(b.dataset.index),
      );
      const start = rows.findIndex(
        (r) => r.getAttribute('aria-level') === '1' && r.textContent?.endsWith(name),
      );
      const inside = [];
      for (const r of rows.slice(start + 1)) {
        if (r.getAttribute('aria-level') !== '2') break;
        inside.push(r.textContent);
      }
      return inside;
    }, folder);

  async function openFolder(page: Page, folder: string) {
    await row(page, folder).click();
    await expect.poll(() => row(page, folder).getAttribute('aria-expanded')).toBe('true');
  }

  it('reorders a page by dragging it above a sibling, writing the order into the files', async () => {
    const { context, page } = await app.openWorkspace();
    await openFolder(page, 'order-dnd');
    expect(await rowsIn(page, 'order-dnd')).toEqual(['Alpha', 'Beta', 'Gamma']);

    await row(page, 'Gamma').dragTo(row(page, 'Alpha'), { targetPosition: { x: 40, y: 4 } });
    await expect.poll(() => rowsIn(page, 'order-dnd')).toEqual(['Gamma', 'Alpha', 'Beta']);
    await expect
      .poll(() => ['gamma', 'alpha', 'beta'].map((n) => orderIn(`order-dnd/${n}.md`)))
      .toEqual(['1', '2', '3']);
    // The server's tree agrees after a reload.
    await page.reload();
    await openFolder(page, 'order-dnd');
    expect(await rowsIn(page, 'order-dnd')).toEqual(['Gamma', 'Alpha', 'Beta']);
    await context.close();
  }, 90_000);

  it('moves a page by dropping it on a folder, and undoes a move the server refuses', async () => {
    const { context, page } = await app.openWorkspace();
    await row(page, 'Loose').dragTo(row(page, 'archive'), { targetPosition: { x: 40, y: 15 } });
    // The page is written at its new path before the old file goes.
    await expect.poll(() => [onDisk('archive/loose.md'), onDisk('loose.md')]).toEqual([true, false]);
    // The folder opens to show the page where it went.
    await expect.poll(() => row(page, 'Loose').getAttribute('aria-level')).toBe('2');

    // archive/taken.md exists: the move is refused, the message shown and the tree put back.
    await row(page, 'Taken').dragTo(row(page, 'archive'), { targetPosition: { x: 40, y: 15 } });
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/already exists/);
    expect(await row(page, 'Taken').getAttribute('aria-level')).toBe('1');
    expect(onDisk('taken.md')).toBe(true);
    await context.close();
  }, 90_000);

  it('keeps rendering only the rows in view while a page is dragged down a long folder', async () => {
    for (let i = 0; i < 120; i++) {
      const n = String(i).padStart(3, '0');
      await app.createPage(`many/p-${n}.md`, { title: `P ${n}` });
    }
    const { context, page } = await app.openWorkspace(undefined, { height: 700 });
    await openFolder(page, 'many');
    const scroller = page.locator('.tree-scroller');
    const box = (await scroller.boundingBox())!;
    const first = (await row(page, 'P 000').boundingBox())!;
    await page.mouse.move(first.x + 30, first.y + 15);
    await page.mouse.down();
    await page.mouse.move(first.x + 30, first.y + 40, { steps: 4 });
    // Held near the bottom edge, the tree scrolls on its own.
    for (let i = 0; (await scroller.evaluate((el) => el.scrollTop)) < 1500 && i < 400; i++) {
      await page.mouse.move(first.x + 30 + (i % 2), box.y + box.height - 10);
    }
    expect(await scroller.evaluate((el) => el.scrollTop)).toBeGreaterThanOrEqual(1500);
    // Far fewer rows than the folder holds, yet the dragged one is still there.
    expect(await tree(page).getByRole('treeitem').count()).toBeLessThan(100);
    expect(await row(page, 'P 000').count()).toBe(1);
    await page.mouse.move(first.x + 30, box.y + box.height / 2, { steps: 3 });
    await page.mouse.up();
    await expect.poll(() => orderIn('many/p-000.md'), { timeout: 20_000 }).toMatch(/^\d+$/);
    expect(Number(orderIn('many/p-000.md'))).toBeGreaterThan(40);
    await context.close();
  }, 180_000);

  it('moves a focused page down among its siblings with Alt+ArrowDown and says so', async () => {
    const { context, page } = await app.openWorkspace();
    await openFolder(page, 'nudge');
    expect(await rowsIn(page, 'nudge')).toEqual(['One', 'Three', 'Two']);
    await row(page, 'One').focus();
    await page.keyboard.press('Alt+ArrowDown');
    await expect.poll(() => rowsIn(page, 'nudge')).toEqual(['Three', 'One', 'Two']);
    await page.getByText('One moved to 2 of 3 in nudge.').waitFor({ state: 'attached' });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('One');
    await expect
      .poll(() => ['three', 'one', 'two'].map((n) => orderIn(`nudge/${n}.md`)))
      .toEqual(['1', '2', '3']);
    await context.close();
  }, 90_000);

  it('renames a page with F2 in the tree and with "Rename…" in its header', async () => {
    const { context, page } = await app.openWorkspace();
    await row(page, 'Rename me').focus();
    await page.keyboard.press('F2');
    const dialog = page.getByRole('dialog', { name: 'Rename page' });
    expect(await dialog.getByLabel('Folder').count()).toBe(0);
    await dialog.getByLabel('File name').fill('renamed.md');
    await dialog.getByRole('button', { name: 'Rename' }).click();
    await expect.poll(() => [onDisk('renamed.md'), onDisk('rename-me.md')]).toEqual([true, false]);

    await row(page, 'Rename me').click();
    await page.waitForURL(/\/renamed\.md$/);
    await editor(page).waitFor();
    await page.getByRole('button', { name: 'Rename…' }).click();
    await dialog.getByLabel('File name').fill('renamed-again');
    await dialog.getByRole('button', { name: 'Rename' }).click();
    await page.waitForURL(`${app.server.url}/w/${app.ws.slug}/renamed-again.md`);
    expect(onDisk('renamed-again.md')).toBe(true);
    expect(onDisk('renamed.md')).toBe(false);
    await context.close();
  }, 90_000);

  it('creates a page from a template, with the title given in place of the template title', async () => {
    const { context, page } = await app.openWorkspace();
    await page.getByRole('button', { name: 'New page' }).click();
    const dialog = page.getByRole('dialog', { name: 'New page' });
    await dialog.getByLabel('Title').fill('Deploy the app');
    await dialog.getByLabel('Template').selectOption({ label: 'How-to guide' });
    await dialog.getByRole('button', { name: 'Create page' }).click();
    await page.waitForURL(`${app.server.url}/w/${app.ws.slug}/deploy-the-app.md`);
    const text = fileBytes(app.server, app.ws.id, 'deploy-the-app.md').toString();
    expect(text).toMatch(/^title: Deploy the app$/m);
    expect(text).toMatch(/^# Deploy the app$/m);
    expect(text).toContain('## Before you start');
    expect(text).not.toContain('How to [achieve a specific result]');
    await context.close();
  }, 90_000);

  it('leaves a viewer nothing to drag, rename or reorder', async () => {
    const viewer = await registerUser(app.server);
    await grantRole(app.server, app.ws, viewer, 'viewer');
    const { context, page } = await app.openWorkspace('taken.md', { as: viewer });
    await editor(page).waitFor();
    expect(await row(page, 'Taken').getAttribute('draggable')).toBeNull();
    expect(await page.getByRole('button', { name: 'Rename…' }).count()).toBe(0);
    await row(page, 'Taken').focus();
    await page.keyboard.press('F2');
    await page.keyboard.press('Alt+ArrowUp');
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(orderIn('taken.md')).toBeUndefined();
    await context.close();
  }, 90_000);

  it('shows "No pages yet" in a workspace without pages, with a way to create the first', async () => {
    const empty = await createWorkspace(app.server, app.owner, 'organise-empty');
    const { context, page } = await signedInTab(app.browser, app.server, app.owner, `/w/${empty.slug}`);
    await page.getByText('No pages yet').waitFor();
    await page.getByRole('button', { name: 'Create the first page' }).click();
    await page.getByRole('dialog', { name: 'New page' }).waitFor();
    await context.close();
  }, 90_000);
});
