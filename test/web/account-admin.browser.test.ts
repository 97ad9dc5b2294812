/**
 * The account screen in headless Chromium against a real server: API keys created (shown
 * once), used, rotated and deleted; the password changed; sessions listed and all signed
 * out; the onboarding checklist shown to a new account and dismissed; `/settings` opening
 * the account, which links to each workspace's settings the user administers, and back. Each result is
 * checked through the API.
 */
import path from 'node:path';
import { expect, it } from 'vitest';
import {
  ARTIFACTS,
  describeInChromium,
  seriousA11yViolations,
  signedInTab,
  useBrowserApp,
} from '../helpers/browser.js';
import { firstWorkspace, registerUser } from '../helpers/users.js';
import { createWorkspace, grantRole } from '../helpers/workspace-access.js';

describeInChromium('web app: the account screen', () => {
  const app = useBrowserApp();

  const withKey = (key: string) =>
    fetch(`${app.server.url}/api/v1/workspaces`, { headers: { authorization: `Bearer ${key}` } });

  it('creates an API key shown once, which works; rotating replaces it; deleting ends it', async () => {
    const user = await registerUser(app.server, { name: 'Kim Keys' });
    const { context, page } = await signedInTab(app.browser, app.server, user, '/settings/account');
    const keys = page.getByRole('region', { name: 'API keys' });
    await keys.getByLabel('Key name').fill('CI deploy');
    await keys.getByLabel('admin: everything the account may do').check();
    await keys.getByLabel('Expires').selectOption({ label: 'In 30 days' });
    await keys.getByRole('button', { name: 'Create key' }).click();
    const shown = keys.getByLabel('New API key');
    await shown.waitFor();
    const key = await shown.inputValue();
    expect(key).toMatch(/^svc_live_/);
    expect((await withKey(key)).status).toBe(200);
    const listed = (await app.server.request('GET', '/api/v1/api-keys', { token: user.token })).body.data;
    expect(listed).toEqual([
      expect.objectContaining({ name: 'CI deploy', scopes: ['read', 'write', 'delete', 'admin'] }),
    ]);
    expect(listed[0].expires_at * 1000 - Date.now()).toBeGreaterThan(29 * 86_400_000);
    expect(await seriousA11yViolations(page), 'account with a new key').toEqual([]);

    // Shown once: after a reload only the prefix is left.
    await page.reload();
    await keys.getByText('CI deploy').waitFor();
    expect(await keys.getByLabel('New API key').count()).toBe(0);
    expect(await page.content()).not.toContain(key);

    await keys.getByRole('button', { name: 'Rotate CI deploy' }).click();
    await keys.getByRole('button', { name: 'Rotate CI deploy' }).click();
    const rotated = await keys.getByLabel('New API key').inputValue();
    expect(rotated).toMatch(/^svc_live_/);
    expect(rotated).not.toBe(key);
    expect((await withKey(key)).status).toBe(401);
    expect((await withKey(rotated)).status).toBe(200);

    await keys.getByRole('button', { name: 'Done' }).click();
    await keys.getByRole('button', { name: 'Delete CI deploy' }).click();
    await keys.getByRole('button', { name: 'Delete CI deploy' }).click();
    await keys.getByText('No API keys yet.').waitFor();
    expect((await withKey(rotated)).status).toBe(401);
    await context.close();
  }, 120_000);

  it('changes the password: the new one signs in, the old one no longer does', async () => {
    const user = await registerUser(app.server, { name: 'Pat Password', password: 'old password 1' });
    const { context, page } = await signedInTab(app.browser, app.server, user, '/settings/account');
    const form = page.getByRole('form', { name: 'Password' });
    await form.getByLabel('Current password').fill('old password 1');
    await form.getByLabel('New password', { exact: true }).fill('new password 2');
    await form.getByLabel('New password again').fill('new password 2');
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.getByText('Password changed.').waitFor();
    const login = (password: string) =>
      app.server.request('POST', '/api/auth/login', { body: { email: user.email, password } });
    expect((await login('old password 1')).status).toBe(401);
    expect((await login('new password 2')).status).toBe(200);
    // This browser is still signed in.
    await page.reload();
    await page.getByRole('heading', { name: 'Account', exact: true }).waitFor();
    expect(page.url()).toBe(`${app.server.url}/settings/account`);

    await form.getByLabel('Current password').fill('wrong');
    await form.getByLabel('New password', { exact: true }).fill('third password');
    await form.getByLabel('New password again').fill('third password');
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.getByRole('alert').filter({ hasText: 'current password' }).waitFor();
    await context.close();
  }, 90_000);

  it('renames the account from the profile form, with the keyboard', async () => {
    const user = await registerUser(app.server, { name: 'Pat Profile' });
    const { context, page } = await signedInTab(app.browser, app.server, user, '/settings/account');
    const profile = page.getByRole('form', { name: 'Profile' });
    const name = profile.getByLabel('Name');
    expect(await name.inputValue()).toBe('Pat Profile');
    await name.fill('Patricia Profile');
    await name.press('Enter');
    await profile.getByRole('status').getByText('Saved.').waitFor();
    const me = await app.server.request('GET', '/api/auth/me', { token: user.token });
    expect(me.body.name).toBe('Patricia Profile');
    await page.locator('.account-who').getByText('Patricia Profile').waitFor();
    expect(await seriousA11yViolations(page), 'profile saved').toEqual([]);
    await context.close();
  }, 90_000);

  it('lists the sessions and signs out everywhere', async () => {
    const user = await registerUser(app.server, { name: 'Sam Sessions' });
    const elsewhere = await app.server.request('POST', '/api/auth/login', {
      body: { email: user.email, password: user.password },
      headers: { 'user-agent': 'curl/8.5.0' },
    });
    const { context, page } = await signedInTab(app.browser, app.server, user, '/settings/account');
    const sessions = page.getByRole('list', { name: 'Signed-in sessions' });
    await sessions.getByText('This device').waitFor();
    await sessions.getByText('curl').waitFor();
    expect(await sessions.getByRole('listitem').count()).toBeGreaterThanOrEqual(2);

    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.waitForURL(`${app.server.url}/login`);
    const me = await app.server.request('GET', '/api/auth/me', { token: elsewhere.body.access_token });
    expect(me.status).toBe(401);
    const refresh = await app.server.request('POST', '/api/auth/refresh', {
      body: { refresh_token: elsewhere.body.refresh_token },
    });
    expect(refresh.status).toBe(401);
    await context.close();
  }, 90_000);

  it('shows a new account its first steps, and hides them once dismissed', async () => {
    const user = await registerUser(app.server, { name: 'Nia Newcomer' });
    const { context, page } = await signedInTab(app.browser, app.server, user, '/settings/account');
    const checklist = page.getByRole('region', { name: 'Getting started' });
    await checklist.getByText('Connect a git remote').waitFor();
    expect(await checklist.getByText('0 of 5 done').count()).toBe(1);
    expect(await seriousA11yViolations(page), 'account').toEqual([]);
    await page.setViewportSize({ width: 1280, height: 2200 });
    await page.screenshot({ path: path.join(ARTIFACTS, 'account-1280-light.png') });
    await checklist.getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => checklist.count()).toBe(0);
    const state = await app.server.request('GET', '/api/v1/users/me/onboarding', { token: user.token });
    expect(state.body.dismissed).toBe(true);
    await context.close();
  }, 90_000);

  it('opens the account at /settings, which leads to each workspace it administers and back', async () => {
    const user = await registerUser(app.server, { name: 'Sue Settings' });
    const other = await registerUser(app.server, { name: 'Otto Other' });
    const own = await firstWorkspace(app.server, user);
    const administered = await createWorkspace(app.server, other, `admin-of-${Date.now().toString(36)}`);
    const written = await createWorkspace(app.server, other, `editor-of-${Date.now().toString(36)}`);
    await grantRole(app.server, administered, user, 'admin');
    await grantRole(app.server, written, user, 'editor');
    const ownName = (await app.server.request('GET', `/api/v1/workspaces/${own.id}`, { token: user.token }))
      .body.name as string;

    for (const width of [1280, 390]) {
      const { context, page } = await signedInTab(app.browser, app.server, user, '/settings', {
        width,
        height: 900,
      });
      await page.waitForURL(`${app.server.url}/settings/account`, { timeout: 15_000 });
      await page.getByRole('heading', { level: 1, name: 'Account' }).waitFor();
      const section = page.getByRole('region', { name: 'Workspace settings' });
      const links = section.getByRole('list', { name: 'Workspaces you administer' }).getByRole('link');
      await expect
        .poll(() => links.allInnerTexts())
        .toEqual(expect.arrayContaining([`${ownName} settings`, `${administered.slug} settings`]));
      expect(await links.count()).toBe(2);
      expect(await section.getByText(written.slug).count()).toBe(0);
      expect(await seriousA11yViolations(page), `account at ${width}`).toEqual([]);
      const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(await overflow(), `account at ${width}`).toBeLessThanOrEqual(0);
      await section.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(ARTIFACTS, `settings-account-${width}.png`) });

      // By keyboard to the workspace's settings, and back to the account from there.
      await section.getByRole('link', { name: `${administered.slug} settings` }).focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(`${app.server.url}/settings/w/${administered.slug}/general`);
      await page.getByRole('navigation', { name: 'Workspace administration' }).waitFor();
      const back = page.getByRole('link', { name: 'Account', exact: true });
      // The theme preview is a sandboxed frame axe cannot enter (admin.browser.test.ts checks it).
      expect(await seriousA11yViolations(page, '.theme-preview'), `workspace settings at ${width}`).toEqual(
        [],
      );
      expect(await overflow(), `workspace settings at ${width}`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: path.join(ARTIFACTS, `settings-workspace-${width}.png`) });
      await back.focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(`${app.server.url}/settings/account`);
      await context.close();
    }
  }, 120_000);

  it('fits a phone: no horizontal scrolling at 390 px', async () => {
    const user = await registerUser(app.server, { name: 'Phil Phone' });
    const { context, page } = await signedInTab(app.browser, app.server, user, '/settings/account', {
      width: 390,
      height: 1600,
    });
    await page.getByRole('button', { name: 'Create key' }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: path.join(ARTIFACTS, 'account-390-light.png') });
    await context.close();
  }, 60_000);
});
