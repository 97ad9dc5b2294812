/**
 * The web app's account screens in headless Chromium against a real server:
 * registering lands in the starter workspace, signing in and out, and the
 * sign-in page passes axe-core's WCAG 2.1 AA rules.
 */
import { expect, it } from 'vitest';
import { describeInChromium, newTab, seriousA11yViolations, useBrowserApp } from '../helpers/browser.js';
import { firstWorkspace, registerUser } from '../helpers/users.js';

describeInChromium('web app: accounts', () => {
  const app = useBrowserApp();

  it('serves the app for deep links that accept HTML, and JSON 404s to API clients', async () => {
    const html = await fetch(`${app.server.url}/w/anything/guide.md`, { headers: { accept: 'text/html' } });
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = html.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("img-src 'self' data: blob:");
    expect(csp).toMatch(/connect-src 'self' ws: wss:/);
    const body = await html.text();
    expect(body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    // The editor's injected styles use this response's nonce.
    const nonce = /<meta name="csp-nonce" content="([^"]+)"/.exec(body)?.[1];
    expect(nonce).toMatch(/^[A-Za-z0-9+/=]{16,}$/);
    expect(csp).toContain(`style-src 'self' 'nonce-${nonce}'`);

    const json = await fetch(`${app.server.url}/w/anything`, { headers: { accept: 'application/json' } });
    expect(json.status).toBe(404);
    expect((await json.json()).error).toBe('NOT_FOUND');
    for (const apiPath of ['/api/v1/nothing', '/mcp/nothing', '/ws/nothing']) {
      const res = await fetch(app.server.url + apiPath, { headers: { accept: 'text/html' } });
      expect(res.status, apiPath).toBe(404);
      expect(res.headers.get('content-type'), apiPath).toMatch(/json/);
    }
    // The published site answers its own 404 page, not the app.
    const site = await fetch(`${app.server.url}/p/nothing/x`, { headers: { accept: 'text/html' } });
    expect(site.status).toBe(404);
    expect(await site.text()).not.toContain('/assets/');
  });

  it('registers a new writer, with the terms accepted, and lands in their starter workspace', async () => {
    const { context, page } = await newTab(app.browser);
    await page.goto(`${app.server.url}/register`);
    await page.getByLabel('Name').fill('Ada Writer');
    await page.getByLabel('Email').fill(`ada-${Date.now()}@example.com`);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByLabel('I accept the terms').check();
    await page.getByRole('button', { name: 'Create account' }).click();

    await page.waitForURL(/\/w\/[^/]+$/);
    const tree = page.getByRole('tree', { name: 'Pages' });
    await expect.poll(() => tree.getByRole('treeitem', { name: 'Welcome to Folio' }).count()).toBe(1);
    await context.close();
  });

  it('signs in with email and password, then signs out', async () => {
    const user = await registerUser(app.server);
    const ws = await firstWorkspace(app.server, user);
    const { context, page } = await newTab(app.browser);
    await page.goto(`${app.server.url}/w/${ws.slug}`);
    await page.waitForURL(/\/login\?next=/);

    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${app.server.url}/w/${ws.slug}`);
    await page.getByRole('tree', { name: 'Pages' }).waitFor();

    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.waitForURL(/\/login$/);
    await page.goto(`${app.server.url}/w/${ws.slug}`);
    await page.waitForURL(/\/login\?next=/);
    await context.close();
  });

  it('shows a wrong password as an error the screen reader announces', async () => {
    const user = await registerUser(app.server);
    const { context, page } = await newTab(app.browser);
    await page.goto(`${app.server.url}/login`);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/.+/);
    await context.close();
  });

  it('has no serious or critical WCAG 2.1 AA violations on the sign-in page, light and dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const { context, page } = await newTab(app.browser, { colorScheme });
      await page.goto(`${app.server.url}/login`);
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      expect(await seriousA11yViolations(page), colorScheme).toEqual([]);
      await context.close();
    }
  }, 120_000);
});
