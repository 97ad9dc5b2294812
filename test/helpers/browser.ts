import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe } from 'vitest';
import {
  CHROMIUM,
  chromiumAvailable,
  launchChromium,
  signedInTab,
  startAppServer,
  type ContextOptions,
} from './chromium.js';
import type { TestServer } from './server.js';
import { firstWorkspace, registerUser, type TestUser } from './users.js';
import { createPage, createWorkspace, type TestWorkspace } from './workspace-access.js';

// The suites import everything browser-related from here.
export * from './chromium.js';

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
