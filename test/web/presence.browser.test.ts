/**
 * Presence avatars in headless Chromium against a real server: two people
 * with the same page open, each in their own browser context, see each
 * other's avatar in the page header; when one leaves the page (or closes the
 * tab) their avatar goes from the other's header.
 */
import type { Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { describeInChromium, useBrowserApp } from '../helpers/browser.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { grantRole } from '../helpers/workspace-access.js';
import { editor } from './editor-helpers.js';

const avatars = (page: Page) => page.getByRole('list', { name: 'Also on this page' });
const avatarOf = (page: Page, name: string) => avatars(page).getByRole('img', { name, exact: true });

describeInChromium('web app: presence avatars', () => {
  const app = useBrowserApp({ owner: { name: 'Olive Owner' } });
  let colleague: TestUser;

  beforeAll(async () => {
    colleague = await registerUser(app.server, { name: 'Cleo Colleague' });
    await grantRole(app.server, app.ws, colleague, 'editor');
    await app.createPage('shared.md', { title: 'Shared', body: 'Both of us are here.\n' });
    await app.createPage('elsewhere.md', { title: 'Elsewhere', body: 'Somewhere else.\n' });
  });

  it('shows who else has the page open, and takes the avatar away when they leave', async () => {
    const mine = await app.openWorkspace('shared.md');
    await editor(mine.page).waitFor();
    const theirs = await app.openWorkspace('shared.md', { as: colleague });
    await editor(theirs.page).waitFor();

    // Each sees the other, named by their name (the tooltip says it too), and not themselves.
    await avatarOf(mine.page, 'Cleo Colleague').waitFor();
    await avatarOf(theirs.page, 'Olive Owner').waitFor();
    expect(await avatarOf(mine.page, 'Cleo Colleague').getAttribute('title')).toBe('Cleo Colleague');
    expect(await avatarOf(mine.page, 'Cleo Colleague').textContent()).toBe('CC');
    expect(await avatarOf(mine.page, 'Olive Owner').count()).toBe(0);

    // The colleague opens another page: gone from this one at once.
    await theirs.page.getByRole('treeitem', { name: 'Elsewhere' }).click();
    await theirs.page.waitForURL(/elsewhere\.md$/);
    await avatars(mine.page).waitFor({ state: 'detached' });
    expect(await avatars(theirs.page).count()).toBe(0);

    // Back again, then the tab is closed: gone again.
    await theirs.page.getByRole('treeitem', { name: 'Shared' }).click();
    await avatarOf(mine.page, 'Cleo Colleague').waitFor();
    await theirs.context.close();
    await avatars(mine.page).waitFor({ state: 'detached' });
    await mine.context.close();
  }, 120_000);
});
