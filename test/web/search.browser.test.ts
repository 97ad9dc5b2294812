/**
 * The Ctrl+K search palette in headless Chromium against a real server: the
 * workspace search with highlighted snippets, Enter opens the page.
 */
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

if (!chromiumAvailable) {
  console.warn(
    `\n[web search] SKIPPED: ${CHROMIUM} not found. Install it with: apt-get install -y chromium\n`,
  );
}

describe.skipIf(!chromiumAvailable)('web app: search', () => {
  let server: TestServer;
  let browser: Browser;
  let owner: TestUser;
  let ws: TestWorkspace;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startAppServer(), launchChromium()]);
    owner = await registerUser(server);
    ws = await firstWorkspace(server, owner);
    await createPage(server, owner, ws, 'ops/backups.md', {
      title: 'Backups',
      // In a code span: search indexes the text a reader sees, and raw HTML is markup, not text.
      body: 'Folio writes a nightly snapshot of the data directory `<and>` keeps seven.\n',
    });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('opens with Ctrl+K from the editor, highlights matches, and opens the result with Enter', async () => {
    const { context, page } = await signedInTab(browser, server, owner, `/w/${ws.slug}/index.md`);
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
    await page.waitForURL(`${server.url}/w/${ws.slug}/ops/backups.md`);
    await page.locator('.cm-line', { hasText: 'nightly snapshot' }).waitFor();
    await context.close();
  }, 90_000);
});
