/**
 * Headless Chromium and a signed-in tab on a real Folio: what the browser suites and
 * `bench/web.ts` share. Nothing here imports vitest, so the bench can run it.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { RATE_BUCKETS } from '../../src/ratelimit/buckets.js';
import { startServer, type StartOptions, type TestServer } from './server.js';
import type { TestUser } from './users.js';
import { ensureWebAppBuilt } from './web-app.js';

/** Debian's Chromium (`apt-get install -y chromium`); browser suites skip, saying so, without it. */
export const CHROMIUM = '/usr/bin/chromium';
export const chromiumAvailable = existsSync(CHROMIUM);

/** Screenshots and other files for people to look at (gitignored). */
export const ARTIFACTS = path.resolve('test-artifacts/web');

/** Headless Chromium with the flags every browser suite uses. */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * A real server serving the built web app, with every rate limit lifted: a browser
 * suite signs in many times from one address, which the auth bucket would refuse.
 */
export async function startAppServer(options: StartOptions = {}): Promise<TestServer> {
  await ensureWebAppBuilt();
  const lifted = Object.fromEntries(Object.keys(RATE_BUCKETS).map((b) => [b, { limit: 1_000_000 }]));
  return startServer({ rateLimits: lifted, ...options });
}

export interface ContextOptions {
  width?: number;
  height?: number;
  colorScheme?: 'light' | 'dark';
}

/** A fresh browser context (its own cookies and storage) and tab. */
export async function newTab(browser: Browser, options: ContextOptions = {}) {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 860 },
    colorScheme: options.colorScheme ?? 'light',
  });
  const page = await context.newPage();
  return { context, page };
}

/**
 * A tab signed in as `user` (through POST /api/auth/login from inside the page, so the
 * browser stores the session cookies as it would after the sign-in form), showing `urlPath`.
 */
export async function signedInTab(
  browser: Browser,
  server: Pick<TestServer, 'url'>,
  user: TestUser,
  urlPath: string,
  options: ContextOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const tab = await newTab(browser, options);
  await tab.page.goto(`${server.url}/login`);
  const status = await tab.page.evaluate(
    async ({ email, password }) =>
      (
        await fetch('/api/auth/login', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password }),
        })
      ).status,
    { email: user.email, password: user.password },
  );
  if (status !== 200) throw new Error(`sign-in failed: ${status}`);
  await tab.page.goto(server.url + urlPath);
  return tab;
}

/**
 * axe-core with the WCAG 2.1 A and AA rules: the serious and critical violations on the page.
 * `exclude` leaves out elements such as a script-less sandboxed frame, which axe cannot enter.
 */
export async function seriousA11yViolations(page: Page, exclude?: string) {
  const { AxeBuilder } = await import('@axe-core/playwright');
  const builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  const result = await (exclude ? builder.exclude(exclude) : builder).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.map((n) => n.html).slice(0, 3) }));
}
