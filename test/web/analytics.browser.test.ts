/**
 * The Analytics screen in headless Chromium against a real server: consented page views
 * and site searches become a line chart, bar charts and the list of searches that found
 * nothing, with the API's figures; a quiet workspace explains consent; Cloud's Free plan
 * sees an upgrade notice.
 */
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import {
  ARTIFACTS,
  describeInChromium,
  seriousA11yViolations,
  signedInTab,
  startAppServer,
  useBrowserApp,
} from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';
import { registerUser } from '../helpers/users.js';
import { createWorkspace } from '../helpers/workspace-access.js';
import { setSettings } from '../publishing/publishing-helpers.js';

const CONSENTED = { cookie: 'folio_analytics=granted' };

describeInChromium('web app: analytics', () => {
  const app = useBrowserApp({ owner: { name: 'Olive Owner' } });

  beforeAll(async () => {
    await app.createPage('guide.md', { title: 'Guide', body: 'Install and configure.\n', publish: true });
    await app.createPage('faq.md', { title: 'FAQ', body: 'Questions.\n', publish: true });
    await setSettings(app.server, app.owner, app.ws, { public_site: true });
    const site = (p: string) => fetch(`${app.server.url}/p/${app.ws.slug}/${p}`, { headers: CONSENTED });
    for (let i = 0; i < 3; i++) expect((await site('guide')).status).toBe(200);
    expect((await site('faq')).status).toBe(200);
    await site('search?q=install');
    await site('search?q=install');
    await site('search?q=kubernetes');
  });

  const report = async (name: string, query = '') =>
    (
      await app.server.request('GET', `/api/v1/workspaces/${app.ws.id}/analytics/${name}?days=30${query}`, {
        token: app.owner.token,
      })
    ).body;

  it('draws views per day, top pages and searches from consented visits, and lists unanswered searches', async () => {
    const { context, page } = await app.openWorkspace();
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    await page.goto(`${app.server.url}/settings/w/${app.ws.slug}/analytics`);

    const views = page.getByRole('img', { name: /Views per day, last 30 days/ });
    await views.waitFor();
    const overview = await report('overview');
    expect(overview.views).toBe(4);
    expect(await views.locator('desc').textContent()).toContain('4 views over 30 days');
    expect(await views.locator('path.chart-line').getAttribute('d')).toMatch(/^M/);
    expect(await page.locator('.totals').textContent()).toContain('Views4');

    const pages = page.getByRole('img', { name: /Most viewed pages/ });
    const apiPages = (await report('pages')).data as { path: string; views: number }[];
    expect(apiPages).toEqual([
      { path: 'guide.md', views: 3, visitors: 1 },
      { path: 'faq.md', views: 1, visitors: 1 },
    ]);
    expect(await pages.locator('text').allTextContents()).toEqual(['guide', '3', 'faq', '1']);
    const searches = page.getByRole('img', { name: /Most frequent searches/ });
    expect(await searches.locator('text').allTextContents()).toEqual(['install', '2', 'kubernetes', '1']);

    const unanswered = page.getByRole('region', { name: 'Searches that found nothing' });
    await unanswered.getByText('kubernetes').waitFor();
    expect(await unanswered.getByText('install').count()).toBe(0);

    // The figures are there as a table too.
    await page.getByRole('region', { name: 'Top pages' }).getByText('Show as a table').click();
    await page.getByRole('row', { name: 'guide 3' }).waitFor();
    expect(await seriousA11yViolations(page), 'analytics').toEqual([]);
    await page.setViewportSize({ width: 1280, height: 1500 });
    await page.screenshot({ path: path.join(ARTIFACTS, 'analytics-1280-light.png') });

    await page.getByLabel('7 days').check();
    await expect.poll(() => requested.some((u) => u.includes('/analytics/overview?days=7'))).toBe(true);
    await page.getByRole('img', { name: /Views per day, last 7 days/ }).waitFor();
    await context.close();
  }, 120_000);

  it('fits a phone', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const size = { width: 390, height: 1600, colorScheme };
      const { context, page } = await app.openWorkspace(undefined, size);
      await page.goto(`${app.server.url}/settings/w/${app.ws.slug}/analytics`);
      await page.getByRole('img', { name: /Views per day/ }).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await page.screenshot({ path: path.join(ARTIFACTS, `analytics-390-${colorScheme}.png`) });
      await context.close();
    }
  }, 60_000);

  it('explains consent when nothing was recorded', async () => {
    const quiet = await createWorkspace(app.server, app.owner, 'quiet-docs');
    const { context, page } = await app.openWorkspace();
    await page.goto(`${app.server.url}/settings/w/${quiet.slug}/analytics`);
    await page.getByRole('heading', { name: 'No visits recorded in this period' }).waitFor();
    expect(await page.getByText('accept analytics', { exact: false }).count()).toBe(1);
    expect(await page.getByRole('img').count()).toBe(0);
    await context.close();
  }, 60_000);
});

describeInChromium('web app: analytics on the Cloud Free plan', () => {
  let cloud: TestServer;
  const app = useBrowserApp({
    start: async () => (cloud = await startAppServer({ env: { EDITION: 'cloud' } })),
  });

  it('shows an upgrade notice instead of an error', async () => {
    const owner = await registerUser(cloud, { name: 'Fran Free' });
    const ws = (await cloud.request('GET', '/api/v1/workspaces', { token: owner.token })).body.data[0];
    const refused = await cloud.request('GET', `/api/v1/workspaces/${ws.id}/analytics/overview`, {
      token: owner.token,
    });
    expect(refused.status).toBe(403);
    const { context, page } = await signedInTab(
      app.browser,
      cloud,
      owner,
      `/settings/w/${ws.slug}/analytics`,
    );
    await page.getByRole('heading', { name: 'Analytics come with the Team plan' }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await seriousA11yViolations(page), 'upgrade notice').toEqual([]);
    await context.close();
  }, 90_000);
});
