/**
 * The published site's layout in Chromium at desktop (1280 px) and phone (390 px) widths:
 * the page header (title, then description, then the contents box), the breadcrumb row
 * (a long one wraps between items, never starting a line with its separator) and the 404
 * page's sidebar. Runs when /usr/bin/chromium exists; says so when skipped.
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
    for (const [folder, title] of [
      ['operations', 'Operations handbook'],
      ['operations/platform', 'Platform engineering'],
      ['operations/platform/pipelines', 'Release pipelines and delivery trains'],
    ] as const) {
      await app.createPage(`${folder}/index.md`, { title, body: `# ${title}\n`, publish: true });
    }
    await app.createPage('operations/platform/pipelines/rollback.md', {
      title: 'Rolling back a failed release',
      body: '# Rolling back\n\nSwap back.\n',
      publish: true,
    });
    await setSettings(app.server, app.owner, app.ws, { public_site: true });
  }, 60_000);

  it('wraps a long breadcrumb between items, never starting a line with the separator', async () => {
    const page = await app.browser.newPage({ viewport: { width, height: 800 } });
    await page.goto(`${app.server.url}/p/layout/operations/platform/pipelines/rollback`);
    const trail = await page.locator('.breadcrumbs ol').evaluate((ol) => {
      const box = ol.getBoundingClientRect();
      return {
        overflows: ol.scrollWidth > ol.clientWidth,
        items: Array.from(ol.children, (li) => {
          const text = document.createRange();
          text.selectNodeContents(li);
          const first = text.getClientRects()[0]!;
          return {
            top: Math.round(li.getBoundingClientRect().top),
            // Where the item starts, and where its words start, from the trail's left edge.
            left: Math.round(li.getBoundingClientRect().left - box.left),
            textLeft: Math.round(first.left - box.left),
            separator: getComputedStyle(li, '::after').content + getComputedStyle(li, '::before').content,
          };
        }),
      };
    });
    expect(trail.items.length).toBe(5);
    expect(trail.overflows).toBe(false);
    const lines = new Set(trail.items.map((i) => i.top)).size;
    // On a phone the trail is longer than a line; it must wrap rather than overflow.
    if (width === 390) expect(lines).toBeGreaterThan(1);
    // Every item but the first is separated from the one before it...
    expect(trail.items.filter((i) => i.separator.includes('/')).length).toBe(4);
    // ...and an item that starts a line starts with its words, the separator left on the line above.
    for (const item of trail.items.filter((i) => i.left === 0)) expect(item.textLeft).toBe(0);
    await page.screenshot({ path: `test-artifacts/site-breadcrumbs-${width}.png` });
    await page.close();
  });

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
