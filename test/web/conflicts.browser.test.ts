/**
 * What the page-by-page editor (co-editing turned off with FF_COEDIT=false) does
 * when the page changes under the writer, in headless Chromium against a real
 * server: a 409 opens the merge view and keeping both changes saves the merged
 * text; another session's save reloads an untouched editor in place; an offline
 * save keeps a local draft and saves it once the server is back. The same cases
 * with co-editing on are in coedit.browser.test.ts.
 */
import { expect, it } from 'vitest';
import {
  describeInChromium,
  seriousA11yViolations,
  startAppServer,
  useBrowserApp,
} from '../helpers/browser.js';
import { countPuts, cursorAtEndOf, saveStatus, waitSaved } from './editor-helpers.js';

describeInChromium('web app: conflicts, live updates and offline saves, page by page', () => {
  const app = useBrowserApp({ owner: true, start: () => startAppServer({ env: { FF_COEDIT: 'false' } }) });

  const read = async (pagePath: string) =>
    (
      await app.server.request('GET', `/api/v1/content/${app.ws.slug}/${pagePath}`, {
        token: app.owner.token,
      })
    ).body;

  /** Another session's save of the page through the API. */
  async function saveElsewhere(pagePath: string, edit: (body: string) => string): Promise<void> {
    const current = await read(pagePath);
    const res = await app.server.request('PUT', `/api/v1/content/${app.ws.slug}/${pagePath}`, {
      token: app.owner.token,
      body: { body: edit(current.content), lastKnownHash: current.content_hash },
    });
    expect(res.status).toBe(200);
  }

  it('shows the merge view on a 409, and keeping both changes saves the merged text', async () => {
    await app.createPage('shared.md', { title: 'Shared', body: 'Alpha\nBeta\nGamma\n' });
    const { context, page } = await app.openWorkspace('shared.md');
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
    await app.createPage('live.md', { title: 'Live', body: 'First\nSecond\n' });
    const { context, page } = await app.openWorkspace('live.md');
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
    await app.createPage('offline.md', { title: 'Offline', body: 'Before\n' });
    const { context, page } = await app.openWorkspace('offline.md');
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
    await app.createPage('draft.md', { title: 'Draft', body: 'Saved text\n' });
    const { context, page } = await app.openWorkspace('draft.md');
    await page.locator('.cm-line', { hasText: 'Saved text' }).waitFor();
    const hash = (await read('draft.md')).content_hash;
    await page.evaluate(
      ([key, value]) => localStorage.setItem(key!, value!),
      [
        `folio:draft:${app.ws.slug}:draft.md`,
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
