/**
 * The published site's search palette in Chromium: Ctrl+K opens it, results appear while
 * typing, ArrowDown and Enter land on the heading's anchor, Escape gives focus back; the
 * query is kept; `/` and the header box open it too; without JavaScript the header form
 * still submits to the results page; axe at 1280 and 390 px in light and dark. The same
 * palette in the static export opened from file://. Screenshots in test-artifacts/web.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  ARTIFACTS,
  CHROMIUM,
  chromiumAvailable,
  launchChromium,
  newTab,
  seriousA11yViolations,
} from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { createPage, createWorkspace, type TestWorkspace } from '../helpers/workspace-access.js';
import { setSettings, startPublishing } from './publishing-helpers.js';

if (!chromiumAvailable) {
  console.warn(
    `\n[site-search.browser] SKIPPED: ${CHROMIUM} not found. Install it with: apt-get install -y chromium\n`,
  );
}

const DEPLOYMENT =
  '# Deployment\n\nShipping the service.\n\n## Docker images\n\nBuild the container image.\n\n' +
  '## Kubernetes cluster\n\nApply the manifests and watch the rollout.\n\n' +
  Array.from({ length: 30 }, (_, i) => `Filler paragraph ${i} so the heading sits below the fold.`).join(
    '\n\n',
  ) +
  '\n\n## Rollback\n\nUndo a failed rollout with one command.\n';

/** Opens the palette with Ctrl+K and types `text`; resolves when hits are listed. */
async function searchFor(page: Page, text: string) {
  await page.keyboard.press('Control+k');
  const input = page.getByRole('combobox', { name: 'Search' });
  await input.waitFor();
  await input.fill(text);
  await page.getByRole('option').first().waitFor();
  return input;
}

describe.skipIf(!chromiumAvailable)('site search palette', () => {
  let server: TestServer;
  let browser: Browser;
  let owner: TestUser;
  let ws: TestWorkspace;

  beforeAll(async () => {
    server = await startPublishing();
    owner = await registerUser(server);
    ws = await createWorkspace(server, owner, 'palette');
    await createPage(server, owner, ws, 'index.md', {
      title: 'Palette docs',
      body: '# Palette docs\n\nHome.\n',
      publish: true,
    });
    await createPage(server, owner, ws, 'guides/deployment.md', {
      title: 'Deployment',
      body: DEPLOYMENT,
      publish: true,
    });
    await createPage(server, owner, ws, 'guides/monitoring.md', {
      title: 'Monitoring',
      body: '# Monitoring\n\n## Alerts\n\nAn alert fires when a rollout stalls.\n',
      publish: true,
    });
    await setSettings(server, owner, ws, { public_site: true });
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('opens with Ctrl+K, shows hits while typing and lands on the heading with ArrowDown and Enter', async () => {
    const { context, page } = await newTab(browser);
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`${server.url}/p/palette/`);
    // Nothing of the palette is loaded before it is opened.
    expect(requests.some((u) => u.includes('palette-'))).toBe(false);
    const home = page.getByRole('link', { name: 'Palette docs' }).first();
    await home.focus();
    const input = await searchFor(page, 'rollback');
    const dialog = page.getByRole('dialog', { name: 'Search' });
    await expect(dialog.isVisible()).resolves.toBe(true);
    await expect(page.getByRole('status').filter({ hasText: 'found' }).textContent()).resolves.toBe(
      '1 page found for “rollback”',
    );
    // No form was submitted: still the home page, and the answers came from search.json.
    expect(page.url()).toBe(`${server.url}/p/palette/`);
    expect(requests.some((u) => u.includes('/p/palette/search.json?q=rollback'))).toBe(true);

    await input.fill('rollout');
    await page.getByRole('option', { name: /Kubernetes cluster/ }).waitFor();
    const hrefs = await page.getByRole('option').evaluateAll((els) => els.map((e) => e.getAttribute('href')));
    const target = '/p/palette/guides/deployment#kubernetes-cluster';
    expect(hrefs).toContain(target);
    for (let i = 0; i <= hrefs.indexOf(target); i++) await page.keyboard.press('ArrowDown');
    const selected = page.locator('[role=option][aria-selected=true]');
    await expect(selected.getAttribute('href')).resolves.toBe(target);
    await expect(input.getAttribute('aria-activedescendant')).resolves.toBe(
      await selected.getAttribute('id'),
    );
    await page.keyboard.press('Enter');
    await page.waitForURL(server.url + target);
    await expect(page.locator('#kubernetes-cluster').isVisible()).resolves.toBe(true);
    await context.close();
  });

  it('Escape closes the palette, returns focus and keeps the query for the next open', async () => {
    const { context, page } = await newTab(browser);
    await page.goto(`${server.url}/p/palette/guides/monitoring`);
    const link = page.getByRole('link', { name: 'Deployment' }).first();
    await link.focus();
    await searchFor(page, 'alert');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog', { name: 'Search' }).isVisible()).resolves.toBe(false);
    await expect(link.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    // `/` outside a field opens it again with the query kept.
    await page.keyboard.press('/');
    const input = page.getByRole('combobox', { name: 'Search' });
    await expect(input.inputValue()).resolves.toBe('alert');
    await expect(page.getByRole('option').count()).resolves.toBeGreaterThan(0);
    await page.keyboard.press('Escape');
    // Typing in the header's box moves into the palette.
    await page.getByRole('searchbox', { name: 'Search the documentation' }).click();
    await expect(input.isVisible()).resolves.toBe(true);
    await context.close();
  });

  it('without JavaScript the header search submits to the results page', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${server.url}/p/palette/`);
    await page.getByRole('searchbox', { name: 'Search the documentation' }).fill('rollout');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL(/\/p\/palette\/search\?q=rollout/);
    await expect(page.getByRole('link', { name: 'Deployment' }).last().isVisible()).resolves.toBe(true);
    await context.close();
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1280, 390]) {
      it(`has no serious axe issue with the palette open (${colorScheme}, ${width} px)`, async () => {
        const { context, page } = await newTab(browser, { width, height: 844, colorScheme });
        await page.goto(`${server.url}/p/palette/guides/monitoring`);
        await searchFor(page, 'rollout');
        await page.keyboard.press('ArrowDown');
        expect(await seriousA11yViolations(page)).toEqual([]);
        await page.screenshot({ path: path.join(ARTIFACTS, `site-palette-${width}-${colorScheme}.png`) });
        await context.close();
      });
    }
  }

  it('works in the static export opened from file://', async () => {
    const res = await fetch(`${server.url}/api/v1/workspaces/${ws.id}/export`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(res.status).toBe(200);
    const dir = mkdtempSync(path.join(tmpdir(), 'folio-export-'));
    writeFileSync(path.join(dir, 'site.zip'), Buffer.from(await res.arrayBuffer()));
    execFileSync('unzip', ['-q', 'site.zip'], { cwd: dir });
    const { context, page } = await newTab(browser);
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(path.join(dir, 'guides/monitoring.html')).href);
    const button = page.getByRole('button', { name: /Search/ });
    await button.focus();
    const input = await searchFor(page, 'rollba');
    await expect(page.getByRole('status').filter({ hasText: 'found' }).textContent()).resolves.toBe(
      '1 page found for “rollba”',
    );
    expect(requests.every((u) => u.startsWith('file://'))).toBe(true);
    await page.keyboard.press('Escape');
    await expect(button.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    await page.keyboard.press('Control+k');
    await expect(input.inputValue()).resolves.toBe('rollba');
    await page.getByRole('option').first().waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const target = pathToFileURL(path.join(dir, 'guides/deployment.html')).href + '#rollback';
    await page.waitForURL(target);
    await expect(page.locator('#rollback').isVisible()).resolves.toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    // The export's own index: a typo forgiven when nothing matches, a title before body text,
    // and the page itself (no anchor) for a word only its title holds.
    const hrefs = async (text: string) => {
      await searchFor(page, text);
      await page
        .getByRole('status')
        .filter({ hasText: `“${text}”` })
        .waitFor();
      return page.getByRole('option').evaluateAll((all) => all.map((a) => a.getAttribute('href')));
    };
    expect((await hrefs('kubernetis'))[0]).toMatch(/deployment\.html#kubernetes-cluster$/);
    await page.keyboard.press('Escape');
    const rollout = await hrefs('rollout');
    expect(rollout.map((h) => h!.replace(/^.*\//, ''))).toEqual([
      'deployment.html#kubernetes-cluster',
      'deployment.html#rollback',
      'monitoring.html#alerts',
    ]);
    await page.keyboard.press('Escape');
    expect(await hrefs('monitoring')).toEqual(['../guides/monitoring.html']);
    await context.close();
  });
});
