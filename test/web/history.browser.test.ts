/**
 * The page history panel in headless Chromium against a real server: the revisions of a page
 * with their author and change, a diff of an old version against the current text, and
 * "Restore this version", checked afterwards through the API and the workspace's git log.
 * Keyboard use, axe-core, and a 390 px phone.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import {
  ARTIFACTS,
  describeInChromium,
  seriousA11yViolations,
  startAppServer,
  useBrowserApp,
} from '../helpers/browser.js';
import { eventually } from '../helpers/eventually.js';
import { commits, editor } from './editor-helpers.js';

const FIRST = 'The first draft.\nA line kept throughout.\n';
const SECOND = 'The second draft, rewritten.\nA line kept throughout.\n';

const panel = (page: Page) => page.getByRole('region', { name: 'History' });
const revisions = (page: Page) =>
  panel(page).getByRole('list', { name: 'Versions, newest first' }).locator(':scope > li');

describeInChromium('web app: page history', () => {
  const app = useBrowserApp({
    owner: { name: 'Olive Owner' },
    start: () => startAppServer({ gitCommitDebounceMs: 50 }),
  });

  beforeAll(async () => {
    const created = await app.createPage('guide.md', { title: 'Guide', body: FIRST });
    await eventually(async () => (await commits(app.server, app.ws.id, 'guide.md')).length === 1);
    const saved = await app.server.request('PUT', `/api/v1/content/${app.ws.slug}/guide.md`, {
      token: app.owner.token,
      body: { body: SECOND, lastKnownHash: created.content_hash },
    });
    expect(saved.status).toBe(200);
    await eventually(async () => (await commits(app.server, app.ws.id, 'guide.md')).length === 2);
  });

  it('lists the revisions, shows a diff against the current text and restores one by keyboard', async () => {
    const { context, page } = await app.openWorkspace('guide.md');
    await page.locator('.cm-line', { hasText: 'The second draft' }).waitFor();
    await page.getByRole('button', { name: 'History' }).focus();
    await page.keyboard.press('Enter');
    await panel(page).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('History');
    await expect.poll(() => revisions(page).count()).toBe(2);
    expect(await revisions(page).nth(0).textContent()).toMatch(/Edited.*Olive Owner/);
    expect(await revisions(page).nth(1).textContent()).toMatch(/Created.*Olive Owner/);

    // The first version against the current text: its line removed, the rewrite added.
    const oldest = revisions(page).nth(1);
    await oldest.getByRole('button', { name: /Compare the version of .* with the current text/ }).focus();
    await page.keyboard.press('Enter');
    const diff = panel(page).getByRole('list', { name: 'Differences from this version to the current text' });
    await diff.waitFor();
    const removed = diff.locator('.diff-removed');
    const added = diff.locator('.diff-added');
    expect(await removed.allTextContents()).toEqual(['−Removed: The first draft.']);
    expect(await added.allTextContents()).toEqual(['+Added: The second draft, rewritten.']);
    expect(await seriousA11yViolations(page), 'history panel').toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS, 'history-1280-light.png') });

    const before = await commits(app.server, app.ws.id);
    await oldest.getByRole('button', { name: 'Restore this version' }).focus();
    await page.keyboard.press('Enter');
    await oldest.getByRole('button', { name: 'Confirm restore' }).click();
    await panel(page)
      .getByRole('status')
      .filter({ hasText: /Restored the version of/ })
      .waitFor();
    // The editor shows the restored text, and the list gains the restore as its newest revision.
    await page.locator('.cm-line', { hasText: 'The first draft.' }).waitFor();
    expect(await editor(page).textContent()).toContain('The first draft.');
    await expect.poll(() => revisions(page).count(), { timeout: 15_000 }).toBe(3);

    // Through the API and git: the file holds the first text again, in a new commit on top.
    const read = await app.server.request('GET', `/api/v1/content/${app.ws.slug}/guide.md`, {
      token: app.owner.token,
    });
    expect(read.body.content).toBe(FIRST);
    const after = await eventually(async () => {
      const now = await commits(app.server, app.ws.id);
      return now.length === before.length + 1 ? now : null;
    });
    expect(after.slice(1)).toEqual(before);
    const history = await app.server.request(
      'GET',
      `/api/v1/workspaces/${app.ws.id}/history?page=guide.md&limit=1`,
      { token: app.owner.token },
    );
    expect(history.body.data[0]).toMatchObject({ commit: after[0], change: 'updated' });
    await context.close();
  }, 120_000);

  it('fits a 390 px phone as a full-width sheet, and Escape closes it', async () => {
    const { context, page } = await app.openWorkspace('guide.md', { width: 390, height: 844 });
    await editor(page).waitFor();
    await page.getByRole('button', { name: 'History' }).click();
    await panel(page).waitFor();
    await revisions(page).first().waitFor();
    await revisions(page)
      .nth(1)
      .getByRole('button', { name: /Compare/ })
      .click();
    await panel(page)
      .getByRole('list', { name: /Differences/ })
      .waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const box = await panel(page).boundingBox();
    expect(box?.width).toBeGreaterThan(380);
    expect(await seriousA11yViolations(page), 'history panel at 390 px').toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS, 'history-390-light.png') });
    await page.keyboard.press('Escape');
    await panel(page).waitFor({ state: 'detached' });
    await context.close();
  }, 90_000);
});
