/**
 * Accepting an invitation link as a new user, in headless Chromium against a
 * real server: the link asks them to sign in or register, then joins them to
 * the workspace and opens it.
 */
import { expect, it } from 'vitest';
import { describeInChromium, newTab, useBrowserApp } from '../helpers/browser.js';
import { registerUser } from '../helpers/users.js';
import { createWorkspace } from '../helpers/workspace-access.js';

describeInChromium('web app: invitations', () => {
  const app = useBrowserApp();

  it('registers a new user from an invitation link and lands in the inviting workspace', async () => {
    const owner = await registerUser(app.server);
    const ws = await createWorkspace(app.server, owner, 'handbook');
    const email = `invitee-${Date.now()}@example.com`;
    const invited = await app.server.request('POST', `/api/v1/workspaces/${ws.id}/invitations`, {
      token: owner.token,
      body: { email, role: 'editor' },
    });
    expect(invited.status).toBe(201);
    const link = new URL(invited.body.accept_url as string);
    expect(link.pathname).toBe(`/invite/${invited.body.token}`);

    const { context, page } = await newTab(app.browser);
    await page.goto(app.server.url + link.pathname);
    await page.waitForURL(/\/login\?next=/);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('Name').fill('Invited Writer');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByLabel('I accept the terms').check();
    await page.getByRole('button', { name: 'Create account' }).click();

    await page.waitForURL(`${app.server.url}/w/handbook`, { timeout: 20_000 });
    // The new workspace has no pages yet; an editor is offered "New page".
    await page.getByRole('button', { name: 'New page' }).waitFor();
    await context.close();
  }, 90_000);
});
