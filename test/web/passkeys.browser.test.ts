/**
 * Passkeys in the web app, in headless Chromium with its virtual authenticator (the
 * DevTools WebAuthn domain): register a passkey from the account screen, sign out,
 * sign in with "Sign in with a passkey", then rename and delete it. The app is opened
 * at http://localhost:<port>, the origin WEBAUTHN_RP_ORIGINS names, since WebAuthn
 * needs a domain (not an IP address) for its relying party.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  ARTIFACTS,
  chromiumAvailable,
  CHROMIUM,
  launchChromium,
  newTab,
  seriousA11yViolations,
  startAppServer,
} from '../helpers/browser.js';
import { freePort } from '../helpers/ports.js';
import type { TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';

if (!chromiumAvailable) {
  console.warn(
    `\n[web passkeys] SKIPPED: ${CHROMIUM} not found. Install it with: apt-get install -y chromium\n`,
  );
}

/** Chromium's virtual platform authenticator on `page`: resident keys, verifies its user. */
async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () =>
      (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials as {
        isResidentCredential: boolean;
        signCount: number;
      }[],
  };
}

describe.skipIf(!chromiumAvailable)('web app: passkeys', () => {
  let server: TestServer;
  let browser: Browser;
  let base: string;
  let user: TestUser;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://localhost:${port}`;
    [server, browser] = await Promise.all([
      startAppServer({
        env: {
          PORT: String(port),
          PUBLIC_URL: base,
          WEBAUTHN_RP_ID: 'localhost',
          WEBAUTHN_RP_DISPLAY_NAME: 'Folio',
          WEBAUTHN_RP_ORIGINS: base,
          // Configured but never contacted: the sign-in page shows their buttons.
          OIDC_GOOGLE_CLIENT_ID: 'google-client',
          OIDC_GOOGLE_CLIENT_SECRET: 'google-secret',
          OIDC_GITHUB_CLIENT_ID: 'github-client',
          OIDC_GITHUB_CLIENT_SECRET: 'github-secret',
        },
      }),
      launchChromium(),
    ]);
    user = await registerUser(server, { name: 'Pat Passkey' });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows every way to sign in, accessibly, at desktop and 390 px', async () => {
    const { context, page } = await newTab(browser);
    await page.goto(`${base}/login`);
    await page.getByRole('button', { name: 'Continue with Google' }).waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Continue with GitHub' }).count()).toBe(1);
    await expect.poll(() => page.getByRole('button', { name: 'Sign in with a passkey' }).count()).toBe(1);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS, 'sign-in-options-1280.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: path.join(ARTIFACTS, 'sign-in-options-390.png'), fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow).toBe(false);
    await context.close();
  });

  it('registers a passkey from the account screen, signs in with it, renames and deletes it', async () => {
    const { context, page } = await newTab(browser);
    const authenticator = await addVirtualAuthenticator(page);

    // Sign in with the password, by the form, and go to the account screen.
    await page.goto(`${base}/login`);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/w\/[^/]+$/);
    await page.getByRole('link', { name: 'Account' }).click();
    await page.waitForURL(/\/settings\/account$/);
    await page.getByRole('heading', { name: 'Passkeys' }).waitFor();
    // The heading comes before the list of passkeys has loaded: wait for the answer.
    await page.getByText('No passkeys yet.').waitFor();
    expect(await page.getByText('No passkeys yet.').count()).toBe(1);

    // Add one from the keyboard: name it, press Enter.
    await page.getByLabel('Passkey name').fill('Test laptop');
    await page.getByLabel('Passkey name').press('Enter');
    const list = page.getByRole('list', { name: 'Your passkeys' });
    await list.getByText('Test laptop').waitFor();
    expect(await list.getByRole('listitem').count()).toBe(1);
    const stored = await authenticator.credentials();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.isResidentCredential).toBe(true);

    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS, 'account-passkeys-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: path.join(ARTIFACTS, 'account-passkeys-390.png'), fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow).toBe(false);
    await page.setViewportSize({ width: 1280, height: 860 });

    // Sign out; back in with the passkey alone, no email typed.
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.waitForURL(/\/login$/);
    const me = await page.evaluate(async () => (await fetch('/api/auth/me')).status);
    expect(me).toBe(401);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL(/\/w\/[^/]+$/);
    const signedIn = await page.evaluate(async () => (await (await fetch('/api/auth/me')).json()).email);
    expect(signedIn).toBe(user.email);
    expect((await authenticator.credentials())[0]!.signCount).toBeGreaterThan(0);

    // The list shows its use; rename it, then delete it.
    await page.getByRole('link', { name: 'Account' }).click();
    await list.getByText('Test laptop').waitFor();
    await expect.poll(() => list.getByText(/Last used Never/).count()).toBe(0);
    await page.getByRole('button', { name: 'Rename Test laptop' }).click();
    await page.getByLabel('New name for Test laptop').fill('Work laptop');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await list.getByText('Work laptop').waitFor();

    await page.getByRole('button', { name: 'Delete Work laptop' }).click();
    await page.getByRole('button', { name: 'Delete passkey Work laptop' }).click();
    await page.getByText('No passkeys yet.').waitFor();
    const left = await page.evaluate(
      async () => (await (await fetch('/api/auth/webauthn/credentials')).json()).data.length,
    );
    expect(left).toBe(0);
    await context.close();
  });
});
