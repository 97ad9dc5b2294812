/**
 * The published site's layout in Chromium at desktop (1280 px) and phone (390 px) widths:
 * the page header (title, then description, then the contents box), the breadcrumb row
 * and the 404 page's sidebar. Runs when /usr/bin/chromium exists; says so when skipped.
 */
import { beforeAll, expect, it } from 'vitest';
import { describeInChromium, useBrowserApp } from '../helpers/browser.js';
import { setSettings, startPublishing } from './publishing-helpers.js';

describeInChromium.each([1280, 390])('site layout at %i px', (width) => {
  const app = useBrowserApp({ start: () => startPublishing(), workspace: 'layout' });

  beforeAll(async () => {
    await app.createPage('index.md', {
      title: 'Layout',
      body: '# Layout\n\nHome.',
      publish: true,
    });
    await app.createPage('guides/deployment.md', {
      title: 'Deployment',
      description: 'Shipping to production',
      body: '# Deployment\n\n## Blue-green deploys\n\nSwap traffic.\n\n## Rollback\n\nSwap back.\n',
      publish: true,
    });
    await setSettings(app.server, app.owner, app.ws, { public_site: true });
  }, 60_000);

  it('shows the title, then the description, then the contents; breadcrumbs on one line', async () => {
    const page = await app.browser.newPage({ viewport: { width, height: 800 } });
    await page.goto(`${app.server.url}/p/layout/guides/deployment`);
    const top = async (selector: string) => (await page.locator(selector).first().boundingBox())?.y ?? NaN;
    const h1 = await top('main h1');
    const lede = await top('main .lede');
    expect(lede).toBeGreaterThan(h1);
    if (width < 1200) expect(await top('main .toc-inline')).toBeGreaterThan(lede);
    const crumbs = await page
      .locator('.breadcrumbs li')
      .evaluateAll((items) => items.map((li) => Math.round(li.getBoundingClientRect().top)));
    expect(crumbs.length).toBe(3);
    expect(new Set(crumbs).size).toBe(1);
    await page.close();
  });

  it('keeps the sidebar and search on the 404 page', async () => {
    const page = await app.browser.newPage({ viewport: { width, height: 800 } });
    const res = await page.goto(`${app.server.url}/p/layout/guides/nowhere`);
    expect(res?.status()).toBe(404);
    // On a phone the sidebar is a drawer behind the Menu button.
    if (width < 768) await page.getByRole('button', { name: 'Menu' }).click();
    await expect(
      page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Deployment' }).count(),
    ).resolves.toBe(1);
    await expect(page.getByRole('searchbox', { name: 'Search the documentation' }).isVisible()).resolves.toBe(
      true,
    );
    await page.close();
  });
});
