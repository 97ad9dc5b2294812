import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe } from 'vitest';
import { RATE_BUCKETS } from '../../src/ratelimit/buckets.js';
import { startServer, type StartOptions, type TestServer } from './server.js';
import { firstWorkspace, registerUser, type TestUser } from './users.js';
import { ensureWebAppBuilt } from './web-app.js';
import { createPage, createWorkspace, type TestWorkspace } from './workspace-access.js';

/** Debian's Chromium (`apt-get install -y chromium`); browser suites skip, saying so, without it. */
export const CHROMIUM = '/usr/bin/chromium';
export const chromiumAvailable = existsSync(CHROMIUM);

/**
 * `describe` for a suite that drives Chromium: skipped, with a warning naming the suite and
 * how to install Chromium, on a machine without it.
 */
export const describeInChromium = Object.assign(
  (title: string, body: () => void) => {
    if (!chromiumAvailable) warnSkipped(title);
    describe.skipIf(!chromiumAvailable)(title, body);
  },
  {
    /** `describe.each` for a Chromium suite (one suite per value, e.g. per viewport width). */
    each:
      <T>(values: readonly T[]) =>
      (title: string, body: (value: T) => void) => {
        if (!chromiumAvailable) warnSkipped(title);
        describe.skipIf(!chromiumAvailable).each(values as T[])(title, body);
      },
  },
);

function warnSkipped(title: string): void {
  console.warn(`\n[${title}] SKIPPED: ${CHROMIUM} not found. Install it with: apt-get install -y chromium\n`);
}

/** What a browser suite's tests share; filled in before the first test runs. */
export interface BrowserApp {
  server: TestServer;
  browser: Browser;
  /** The registered owner (with `owner` or `workspace` set). */
  owner: TestUser;
  /** The owner's starter workspace, or the one made with `workspace`'s slug. */
  ws: TestWorkspace;
  /** Creates a page in `ws` as the owner, through the content API. */
  createPage(pagePath: string, page: Parameters<typeof createPage>[4]): ReturnType<typeof createPage>;
  /**
   * A new tab signed in (as the owner unless `as` says otherwise) showing `ws` in the web
   * app, or one of its pages when `pagePath` is given.
   */
  openWorkspace(
    pagePath?: string,
    options?: ContextOptions & { as?: TestUser },
  ): Promise<{ context: BrowserContext; page: Page }>;
}

export interface BrowserAppOptions {
  /** Starts the server; the web app's (`startAppServer`) by default. */
  start?: () => Promise<TestServer>;
  /** Registers an owner (`true`, or `registerUser`'s overrides) and answers their starter workspace as `ws`. */
  owner?: boolean | Parameters<typeof registerUser>[1];
  /** Registers an owner and creates a workspace with this slug as `ws`. */
  workspace?: string;
  /** For the set-up: a first build of the web app takes minutes. */
  timeoutMs?: number;
}

/**
 * The set-up every browser suite shares: in `beforeAll`, a server and headless Chromium
 * (started side by side) and, if asked, a registered owner and their workspace; in
 * `afterAll`, both closed. Call it inside `describe`; the suite's own `beforeAll` runs after.
 */
export function useBrowserApp(options: BrowserAppOptions = {}): BrowserApp {
  const app = {
    createPage: (pagePath, page) => createPage(app.server, app.owner, app.ws, pagePath, page),
    openWorkspace: (pagePath, { as, ...context } = {}) =>
      signedInTab(
        app.browser,
        app.server,
        as ?? app.owner,
        `/w/${app.ws.slug}${pagePath ? `/${pagePath}` : ''}`,
        context,
      ),
  } as BrowserApp;
  beforeAll(async () => {
    [app.server, app.browser] = await Promise.all([(options.start ?? startAppServer)(), launchChromium()]);
    if (options.owner || options.workspace) {
      app.owner = await registerUser(app.server, typeof options.owner === 'object' ? options.owner : {});
      app.ws = options.workspace
        ? await createWorkspace(app.server, app.owner, options.workspace)
        : await firstWorkspace(app.server, app.owner);
    }
  }, options.timeoutMs ?? 300_000);
  afterAll(async () => {
    await app.browser?.close();
    await app.server?.close();
  });
  return app;
}

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
  server: TestServer,
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
