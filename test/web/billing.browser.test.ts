/**
 * The billing screen in headless Chromium against a Cloud-edition server whose Stripe is
 * the local fake: the account screen links to it, it shows the plan and usage against
 * the plan's limits, "Upgrade to Team" leads to the fake's Checkout page, and once the
 * checkout completes "Manage billing" leads to its Customer Portal. The Community
 * edition has neither the link nor the screen.
 */
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  ARTIFACTS,
  describeInChromium,
  seriousA11yViolations,
  signedInTab,
  startAppServer,
  useBrowserApp,
} from '../helpers/browser.js';
import { startFakeStripe, stripeEvent, type FakeStripe } from '../helpers/fake-stripe.js';
import type { TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { deliver, unix } from '../billing/billing-helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON */

describeInChromium('web app: billing (Cloud)', () => {
  let fake: FakeStripe;
  let cloud: TestServer;
  let admin: TestUser;
  const app = useBrowserApp({
    start: async () => {
      fake = await startFakeStripe();
      cloud = await startAppServer({
        env: {
          EDITION: 'cloud',
          STRIPE_SECRET_KEY: fake.secretKey,
          STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
          STRIPE_API_BASE: fake.url,
        },
      });
      return cloud;
    },
  });
  beforeAll(async () => {
    await registerUser(cloud); // the platform owner
    admin = await registerUser(cloud, { name: 'Bea Billing' });
  });
  afterAll(() => fake.close());

  it('shows plan and usage, and upgrading leads to Stripe Checkout', async () => {
    const { context, page } = await signedInTab(app.browser, cloud, admin, '/settings/account');
    await page.getByRole('link', { name: 'Billing' }).click();
    await page.getByRole('heading', { name: 'Billing', level: 1 }).waitFor();
    const usage = page.getByRole('list', { name: 'Usage against the plan’s limits' });
    await usage.getByText('1 of 50').waitFor();
    expect(await page.getByRole('progressbar', { name: 'Pages: 1 of 50' }).count()).toBe(1);
    expect(await page.locator('.billing-plan').textContent()).toContain('Free');
    expect(await page.getByRole('button', { name: 'Manage billing' }).count()).toBe(0);
    expect(await seriousA11yViolations(page), 'billing').toEqual([]);
    await page.setViewportSize({ width: 1280, height: 1100 });
    await page.screenshot({ path: path.join(ARTIFACTS, 'billing-1280-light.png') });

    // Keyboard: the upgrade button is reachable and works with Enter.
    const upgrade = page.getByRole('button', { name: 'Upgrade to Team' });
    await upgrade.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`^${fake.url}/checkout/cs_test_`));
    expect(await page.title()).toBe('Fake Stripe Checkout');
    const sent = fake.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!.form as any;
    expect(sent.metadata.plan).toBe('team');

    // Stripe tells Folio the checkout completed; back on the screen the plan is Team.
    const completed = stripeEvent(
      'checkout.session.completed',
      {
        id: 'cs_test_browser',
        object: 'checkout.session',
        mode: 'subscription',
        customer: sent.customer,
        subscription: 'sub_browser',
        metadata: sent.metadata,
      },
      { created: unix(cloud) },
    );
    expect((await deliver(cloud, fake, completed)).status).toBe(200);
    await page.goto(`${cloud.url}/settings/billing`);
    await page
      .getByRole('list', { name: 'Usage against the plan’s limits' })
      .getByText('1 of 2000')
      .waitFor();
    expect(await page.locator('.billing-plan').textContent()).toContain('Team');
    await page.getByRole('button', { name: 'Manage billing' }).click();
    await page.waitForURL(new RegExp(`^${fake.url}/portal/bps_`));
    await context.close();
  }, 120_000);

  it('fits a phone, light and dark', async () => {
    const other = await registerUser(cloud, { name: 'Phil Phone' });
    for (const colorScheme of ['light', 'dark'] as const) {
      const { context, page } = await signedInTab(app.browser, cloud, other, '/settings/billing', {
        width: 390,
        height: 1400,
        colorScheme,
      });
      await page.getByRole('button', { name: 'Upgrade to Business' }).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      expect(await seriousA11yViolations(page), `billing ${colorScheme}`).toEqual([]);
      await page.screenshot({ path: path.join(ARTIFACTS, `billing-390-${colorScheme}.png`) });
      await context.close();
    }
  }, 60_000);
});

describeInChromium('web app: no billing in the Community edition', () => {
  const app = useBrowserApp({ owner: { name: 'Cory Community' } });

  it('has no Billing link and no billing screen', async () => {
    const { context, page } = await signedInTab(app.browser, app.server, app.owner, '/settings/account');
    // The link would appear once the plans answered; the Community edition answers 404.
    const plans = page.waitForResponse((r) => r.url().endsWith('/api/v1/billing/plans'));
    await page.reload();
    expect((await plans).status()).toBe(404);
    await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
    expect(await page.getByRole('link', { name: 'Billing' }).count()).toBe(0);
    await page.goto(`${app.server.url}/settings/billing`);
    await page.getByText('There is nothing at this address.').waitFor();
    await context.close();
  }, 60_000);
});
