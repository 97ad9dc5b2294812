/**
 * The platform owner's administration in headless Chromium against a Cloud server: the
 * organizations list and a plan change made with the keyboard, the audit log that records
 * it, impersonating a user (the banner on every screen until it is ended, and the audit
 * entry), the other platform screens, and the account's "Your data" section. Each screen is
 * checked with axe at 1280 and 390 px wide and photographed into test-artifacts/web/.
 */
import path from 'node:path';
import { expect, it } from 'vitest';
import {
  ARTIFACTS,
  describeInChromium,
  seriousA11yViolations,
  signedInTab,
  startAppServer,
  useBrowserApp,
} from '../helpers/browser.js';
import { registerUser, type TestUser } from '../helpers/users.js';

describeInChromium('web app: platform administration (Cloud)', () => {
  const app = useBrowserApp({
    start: () => startAppServer({ env: { EDITION: 'cloud' } }),
    owner: { name: 'Olive Owner' },
  });
  let alice: TestUser;
  let aliceOrg: string;

  const shot = (name: string) => path.join(ARTIFACTS, `${name}.png`);

  it('lists organizations and changes a plan with the keyboard; the audit log records it', async () => {
    alice = await registerUser(app.server, { name: 'Alice Lee' });
    aliceOrg = (await app.server.request('GET', '/api/auth/me', { token: alice.token })).body.org.handle;
    const { context, page } = await signedInTab(app.browser, app.server, app.owner, '/settings/platform');
    await page.getByRole('heading', { name: 'Organizations' }).waitFor();
    const plan = page.getByLabel(`Plan of ${aliceOrg}`, { exact: true });
    await plan.waitFor();
    expect(await plan.inputValue()).toBe('free');
    await plan.focus();
    await page.keyboard.press('ArrowDown'); // Free → Team
    await page.keyboard.press('Tab');
    const change = page.getByRole('button', { name: `Change the plan of ${aliceOrg}` });
    expect(await change.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await expect
      .poll(
        async () =>
          (await app.server.request('GET', `/api/v1/admin/orgs/${aliceOrg}`, { token: app.owner.token })).body
            .plan,
      )
      .toBe('team');
    await expect.poll(() => change.isDisabled()).toBe(true);
    expect(await seriousA11yViolations(page), 'organizations').toEqual([]);
    await page.screenshot({ path: shot('platform-orgs-1280'), fullPage: true });

    await page.getByRole('link', { name: 'Audit log' }).click();
    const entries = page.getByRole('list', { name: 'Audit entries' });
    await entries.getByText('Org plan changed').waitFor();
    expect(await entries.textContent()).toContain('to: team');
    expect(await seriousA11yViolations(page), 'audit log').toEqual([]);
    await page.screenshot({ path: shot('platform-audit-1280'), fullPage: true });

    for (const [link, heading] of [
      ['Users', 'Users'],
      ['Custom domains', 'Custom domains'],
      ['System health', 'System health'],
      ['Growth', 'Growth'],
    ] as const) {
      await page.getByRole('link', { name: link }).click();
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
      expect(await seriousA11yViolations(page), heading).toEqual([]);
      await page.screenshot({
        path: shot(`platform-${link.toLowerCase().replace(/ /g, '-')}-1280`),
        fullPage: true,
      });
    }
    await page.getByRole('cell', { name: new Date().toISOString().slice(0, 10) }).waitFor();
    await context.close();
  }, 300_000);

  it('fits a 390 px screen', async () => {
    const { context, page } = await signedInTab(
      app.browser,
      app.server,
      app.owner,
      '/settings/platform/orgs',
      {
        width: 390,
        height: 844,
      },
    );
    await page.getByLabel(`Plan of ${aliceOrg}`, { exact: true }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await seriousA11yViolations(page), 'organizations at 390 px').toEqual([]);
    await page.screenshot({ path: shot('platform-orgs-390'), fullPage: true });
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('button', { name: 'Impersonate Alice Lee…' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: shot('platform-users-390'), fullPage: true });
    await context.close();
  }, 120_000);

  it('impersonates a user with a reason: a banner on every screen until it is ended, and an audit entry', async () => {
    const { context, page } = await signedInTab(
      app.browser,
      app.server,
      app.owner,
      '/settings/platform/users',
      {
        width: 390,
        height: 844,
      },
    );
    await page.getByRole('button', { name: 'Impersonate Alice Lee…' }).click();
    await page.getByLabel('Why impersonate Alice Lee?').fill('Ticket 7: cannot find a page');
    await page.getByRole('button', { name: 'Impersonate Alice Lee', exact: true }).click();
    const banner = page.getByRole('region', { name: 'Impersonation' });
    await banner.waitFor();
    expect(await banner.textContent()).toContain('Impersonating Alice Lee');
    expect(await banner.textContent()).toContain('Olive Owner');
    await page.waitForURL(/\/w\//);
    expect(await seriousA11yViolations(page), 'workspace while impersonating').toEqual([]);
    await page.screenshot({ path: shot('impersonation-banner-390') });

    const audit = await app.server.request('GET', '/api/v1/admin/audit-log', { token: app.owner.token });
    expect(audit.body.data[0]).toMatchObject({
      action: 'user_impersonated',
      target: { id: alice.id },
      details: { reason: 'Ticket 7: cannot find a page' },
    });

    // Still there on another screen: the account page, which shows the Cloud "Your data" section.
    await page.goto(`${app.server.url}/settings/account`);
    await banner.waitFor();
    const data = page.getByRole('region', { name: 'Your data' });
    await data.getByRole('link', { name: 'Download my data' }).waitFor();
    expect(await data.getByRole('link', { name: 'Platform administration' }).count()).toBe(0);
    await page.screenshot({ path: shot('account-your-data-390'), fullPage: true });

    await banner.getByRole('button', { name: 'End impersonation' }).click();
    await page.waitForURL(/\/login/);
    expect(await page.getByRole('region', { name: 'Impersonation' }).count()).toBe(0);
    const ended = await app.server.request('GET', '/api/v1/admin/audit-log', { token: app.owner.token });
    expect(ended.body.data[0]).toMatchObject({ action: 'impersonation_ended', target: { id: alice.id } });
    await context.close();
  }, 120_000);

  it('is not found for anyone but the platform owner', async () => {
    const { context, page } = await signedInTab(app.browser, app.server, alice, '/settings/platform/orgs');
    await page.getByRole('heading', { name: /not found/i }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Platform administration' }).count()).toBe(0);
    await context.close();
  }, 60_000);
});
