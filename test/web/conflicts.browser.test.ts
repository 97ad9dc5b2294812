/**
 * What the editor does when the page changes under the writer, in headless
 * Chromium against a real server: a 409 opens the merge view and keeping both
 * changes saves the merged text; another session's save reloads an untouched
 * editor in place; an offline save keeps a local draft and saves it once the
 * server is back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  chromiumAvailable,
  CHROMIUM,
  launchChromium,
  seriousA11yViolations,
  signedInTab,
  startAppServer,
} from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';
import { firstWorkspace, registerUser, type TestUser } from '../helpers/users.js';
import { createPage, type TestWorkspace } from '../helpers/workspace-access.js';
import { countPuts, cursorAtEndOf, saveStatus, waitSaved } from './editor-helpers.js';

if (!chromiumAvailable) {
  console.warn(
    `\n[web conflicts] SKIPPED: ${CHROMIUM} not found. Install it with: apt-get install -y chromium\n`,
  );
}

describe.skipIf(!chromiumAvailable)('web app: conflicts, live updates and offline saves', () => {
  let server: TestServer;
  let browser: Browser;
  let owner: TestUser;
  let ws: TestWorkspace;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startAppServer(), launchChromium()]);
    owner = await registerUser(server);
    ws = await firstWorkspace(server, owner);
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const read = async (pagePath: string) =>
    (await server.request('GET', `/api/v1/content/${ws.slug}/${pagePath}`, { token: owner.token })).body;

  /** Another session's save of the page through the API. */
  async function saveElsewhere(pagePath: string, edit: (body: string) => string): Promise<void> {
    const current = await read(pagePath);
    const res = await server.request('PUT', `/api/v1/content/${ws.slug}/${pagePath}`, {
      token: owner.token,
      body: { body: edit(current.content), lastKnownHash: current.content_hash },
    });
    expect(res.status).toBe(200);
  }

  it('shows the merge view on a 409, and keeping both changes saves the merged text', async () => {
    await createPage(server, owner, ws, 'shared.md', { title: 'Shared', body: 'Alpha\nBeta\nGamma\n' });
    const { context, page } = await signedInTab(browser, server, owner, `/w/${ws.slug}/shared.md`);
    await page.locator('.cm-line', { hasText: 'Gamma' }).waitFor();

    // The other change lands just before the writer's autosave reaches the server.
    let intercepted = false;
    await page.route('**/api/v1/content/**', async (route) => {
      if (route.request().method() === 'PUT' && !intercepted) {
        intercepted = true;
        await saveElsewhere('shared.md', (body) => body.replace('Alpha', 'Alpha (theirs)'));
      }
      await route.continue();
    });
    await cursorAtEndOf(page, 'Gamma');
    await page.keyboard.type(' (mine)');

    const merge = page.getByRole('region', { name: 'Someone else changed this page' });
    await merge.waitFor({ timeout: 20_000 });
    expect(await seriousA11yViolations(page), 'merge view').toEqual([]);
    await merge.getByRole('button', { name: 'Save merge' }).click();
    await waitSaved(page);

    expect((await read('shared.md')).content).toBe('Alpha (theirs)\nBeta\nGamma (mine)\n');
    await context.close();
  }, 90_000);

  it('reloads an untouched editor in place when another session saves the page', async () => {
    await createPage(server, owner, ws, 'live.md', { title: 'Live', body: 'First\nSecond\n' });
    const { context, page } = await signedInTab(browser, server, owner, `/w/${ws.slug}/live.md`);
    const puts = countPuts(page);
    await page.locator('.cm-line', { hasText: 'Second' }).waitFor();
    // The WebSocket subscription is up once the server counts this tab as present.
    await new Promise((r) => setTimeout(r, 1500));

    await saveElsewhere('live.md', (body) => body.replace('Second', 'Second, from elsewhere'));
    await page.locator('.cm-line', { hasText: 'Second, from elsewhere' }).waitFor({ timeout: 20_000 });
    expect(await saveStatus(page).textContent()).toBe('Saved');
    expect(puts.count).toBe(0);
    await context.close();
  });

  it('keeps an offline save as a local draft and saves it once the server is back', async () => {
    await createPage(server, owner, ws, 'offline.md', { title: 'Offline', body: 'Before\n' });
    const { context, page } = await signedInTab(browser, server, owner, `/w/${ws.slug}/offline.md`);
    await page.locator('.cm-line', { hasText: 'Before' }).waitFor();

    await context.setOffline(true);
    await cursorAtEndOf(page, 'Before');
    await page.keyboard.type(' and after');
    await page
      .getByRole('alert')
      .filter({ hasText: /offline/i })
      .waitFor({ timeout: 20_000 });
    expect(await saveStatus(page).textContent()).toBe('Unsaved changes');
    const draft = await page.evaluate(() =>
      localStorage.getItem(Object.keys(localStorage).find((k) => k.startsWith('folio:draft:'))!),
    );
    expect(JSON.parse(draft!).doc).toBe('Before and after\n');
    expect((await read('offline.md')).content).toBe('Before\n');

    await context.setOffline(false);
    await waitSaved(page, 40_000);
    expect((await read('offline.md')).content).toBe('Before and after\n');
    expect(
      await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('folio:draft:'))),
    ).toEqual([]);
    await context.close();
  }, 90_000);

  it('offers a draft left behind when the page is opened again', async () => {
    await createPage(server, owner, ws, 'draft.md', { title: 'Draft', body: 'Saved text\n' });
    const { context, page } = await signedInTab(browser, server, owner, `/w/${ws.slug}/draft.md`);
    await page.locator('.cm-line', { hasText: 'Saved text' }).waitFor();
    const hash = (await read('draft.md')).content_hash;
    await page.evaluate(
      ([key, value]) => localStorage.setItem(key!, value!),
      [
        `folio:draft:${ws.slug}:draft.md`,
        JSON.stringify({
          doc: 'Saved text\nUnsent line\n',
          baseHash: hash,
          savedAt: new Date().toISOString(),
        }),
      ],
    );
    await page.reload();
    const offer = page.getByRole('region', { name: 'Unsaved draft' });
    await offer.getByRole('button', { name: 'Restore draft' }).click();
    await waitSaved(page);
    expect((await read('draft.md')).content).toBe('Saved text\nUnsent line\n');
    await context.close();
  });
});
