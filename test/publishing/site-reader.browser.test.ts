/**
 * The published site's reading aids in Chromium at phone width (390 px): the Menu
 * button opens the page list as a drawer (focus moves in, Escape closes it and returns
 * focus), and a code block's Copy button puts its code on the clipboard. Screenshots in
 * light and dark go to test-artifacts/web. Runs when /usr/bin/chromium exists.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  ARTIFACTS,
  CHROMIUM,
  chromiumAvailable,
  launchChromium,
  newTab,
  seriousA11yViolations,
} from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';
import { registerUser } from '../helpers/users.js';
import { createPage, createWorkspace } from '../helpers/workspace-access.js';
import { setSettings, startPublishing } from './publishing-helpers.js';

if (!chromiumAvailable) {
  console.warn(
    `\n[site-reader.browser] SKIPPED: ${CHROMIUM} not found. Install it with: apt-get install -y chromium\n`,
  );
}

describe.skipIf(!chromiumAvailable)('site reading aids at 390 px', () => {
  let server: TestServer;
  let browser: Browser;
  const url = () => `${server.url}/p/aids/guides/commands`;

  beforeAll(async () => {
    server = await startPublishing();
    const owner = await registerUser(server);
    const ws = await createWorkspace(server, owner, 'aids');
    await createPage(server, owner, ws, 'index.md', {
      title: 'Aids',
      body: '# Aids\n\nHome.\n',
      publish: true,
    });
    await createPage(server, owner, ws, 'guides/commands.md', {
      title: 'Commands',
      body:
        '# Commands\n\nInstall it:\n\n```bash\nnpm install folio\nfolio serve --port 8080\n```\n\n' +
        'Workspace\n: A folder of pages.\n',
      publish: true,
    });
    await createPage(server, owner, ws, 'guides/deployment.md', {
      title: 'Deployment',
      body: '# Deployment\n\nShip it.\n',
      publish: true,
    });
    await setSettings(server, owner, ws, { public_site: true });
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('opens the page list as a drawer from Menu; Escape closes it and returns focus', async () => {
    const { context, page } = await newTab(browser, { width: 390, height: 844 });
    await page.goto(url());
    const nav = page.getByRole('navigation', { name: 'Pages', exact: true });
    const menu = page.getByRole('button', { name: 'Menu' });
    await expect(nav.isVisible()).resolves.toBe(false);
    await expect(page.locator('a.nav-jump').isVisible()).resolves.toBe(false);
    await expect(menu.getAttribute('aria-expanded')).resolves.toBe('false');
    await expect(menu.getAttribute('aria-controls')).resolves.toBe('site-nav');

    await menu.focus();
    await page.keyboard.press('Enter');
    await expect(nav.isVisible()).resolves.toBe(true);
    await expect(menu.getAttribute('aria-expanded')).resolves.toBe('true');
    // Over the page, at the top of the viewport rather than after the article.
    const box = await nav.boundingBox();
    expect(box?.y).toBe(0);
    await expect(page.evaluate(() => document.activeElement?.closest('#site-nav') !== null)).resolves.toBe(
      true,
    );
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Commands');

    await page.keyboard.press('Escape');
    await expect(nav.isVisible()).resolves.toBe(false);
    await expect(menu.getAttribute('aria-expanded')).resolves.toBe('false');
    await expect(
      page.evaluate(() => document.activeElement?.getAttribute('data-folio-nav-toggle')),
    ).resolves.toBe('');

    await menu.click();
    await expect(nav.isVisible()).resolves.toBe(true);
    await nav.getByRole('link', { name: 'Deployment' }).click();
    await page.waitForURL(/\/p\/aids\/guides\/deployment$/);
    await context.close();
  });

  it('copies a code block with its Copy button', async () => {
    const { context, page } = await newTab(browser, { width: 390, height: 844 });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await page.goto(url());
    const block = page.locator('.code-block').first();
    await expect(block.locator('.code-label').textContent()).resolves.toBe('bash');
    await block.getByRole('button', { name: 'Copy' }).click();
    // The label changes once the clipboard has taken the text, which is asynchronous.
    await block.getByRole('button', { name: 'Copied' }).waitFor({ timeout: 10_000 });
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(
      'npm install folio\nfolio serve --port 8080\n',
    );
    await context.close();
  });

  it('shows the label and no Copy button without JavaScript, and Menu stays a link', async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      javaScriptEnabled: false,
    });
    const page = await context.newPage();
    await page.goto(url());
    await expect(page.locator('.code-label').isVisible()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'Copy' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Menu' }).isVisible()).resolves.toBe(false);
    await expect(page.getByRole('link', { name: 'Menu' }).getAttribute('href')).resolves.toBe('#site-nav');
    await expect(page.getByRole('navigation', { name: 'Pages', exact: true }).isVisible()).resolves.toBe(
      true,
    );
    await context.close();
  });

  it.each(['light', 'dark'] as const)(
    'meets WCAG AA and screenshots the page and the open drawer (%s)',
    async (colorScheme) => {
      const { context, page } = await newTab(browser, { width: 390, height: 844, colorScheme });
      await page.goto(url());
      await expect(seriousA11yViolations(page)).resolves.toEqual([]);
      await page.screenshot({ path: path.join(ARTIFACTS, `site-code-390-${colorScheme}.png`) });
      await page.getByRole('button', { name: 'Menu' }).click();
      await expect(seriousA11yViolations(page)).resolves.toEqual([]);
      await page.screenshot({ path: path.join(ARTIFACTS, `site-drawer-390-${colorScheme}.png`) });
      await context.close();
    },
  );
});
