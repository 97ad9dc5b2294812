/**
 * The Ctrl+K search palette in headless Chromium against a real server: the
 * workspace search with highlighted snippets, Enter opens the page.
 */
import { beforeAll, expect, it } from 'vitest';
import { describeInChromium, useBrowserApp } from '../helpers/browser.js';

describeInChromium('web app: search', () => {
  const app = useBrowserApp({ owner: true });

  beforeAll(async () => {
    await app.createPage('ops/backups.md', {
      title: 'Backups',
      // In a code span: search indexes the text a reader sees, and raw HTML is markup, not text.
      body: 'Folio writes a nightly snapshot of the data directory `<and>` keeps seven.\n',
    });
  });

  it('opens with Ctrl+K from the editor, highlights matches, and opens the result with Enter', async () => {
    const { context, page } = await app.openWorkspace('index.md');
    await page.getByRole('textbox', { name: 'Editor' }).click();
    await page.keyboard.press('Control+k');
    const input = page.getByRole('combobox', { name: 'Search' });
    await input.waitFor();
    await input.fill('snapshot');
    const result = page.getByRole('option', { name: /Backups/ });
    await result.waitFor({ timeout: 20_000 });
    expect(await result.locator('mark').first().textContent()).toMatch(/snapshot/i);
    expect(await result.textContent()).toContain('<and>');
    await input.press('Enter');
    await page.waitForURL(`${app.server.url}/w/${app.ws.slug}/ops/backups.md`);
    await page.locator('.cm-line', { hasText: 'nightly snapshot' }).waitFor();
    await context.close();
  }, 90_000);
});
