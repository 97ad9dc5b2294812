/**
 * Headless Chromium opens a published page in each of the seven themes: the stylesheet
 * must load under the site's CSP (the page takes the theme's background), the nonce'd
 * toggle script must run where the theme has a dark variant, and a screenshot of each
 * theme is saved to test-artifacts/themes/<theme>.png for people to look at.
 * Runs when /usr/bin/chromium exists (`apt-get install -y chromium`); says so when skipped.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { THEME_NAMES, themeDefinition, themeSupportsToggle } from '../../src/render/themes.js';
import { describeInChromium, useBrowserApp } from '../helpers/browser.js';
import { setSettings, startPublishing } from './publishing-helpers.js';

const ARTIFACTS = path.resolve('test-artifacts/themes');

const GUIDE = `Folio turns a folder of Markdown into a documentation site. This guide walks through a first
installation, then the settings most teams change on day one.

## Install

Download the release for your platform and start the server:

\`\`\`bash
npm ci && npm start
# the site answers on http://localhost:3000
\`\`\`

> [!TIP]
> Keep \`DATA_DIR\` on a disk that is backed up: it holds every page and the database.

## Configure

| Variable | Default | Meaning |
| --- | --- | --- |
| \`PORT\` | 3000 | where the server listens |
| \`PUBLIC_URL\` | http://localhost:3000 | absolute links in mails |

1. Open the admin settings.
2. Choose a theme and a site title.
3. Publish the workspace.

\`\`\`ts
export function greet(name: string): string {
  return \`Hello, \${name}!\`; // friendly
}
\`\`\`

> [!WARNING]
> Changing the theme changes every published page at once.

See [[guides/publishing|the publishing guide]] next, or read about [API tokens](../reference/tokens.md).
`;

const hexToRgb = (hex: string): string => {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
};

describeInChromium('published themes in Chromium', () => {
  const app = useBrowserApp({ start: () => startPublishing(), workspace: 'acme-docs' });

  beforeAll(async () => {
    const page = app.createPage;
    await page('index.md', { title: 'Acme Docs', body: 'Welcome to the Acme documentation.', publish: true });
    await page('guides/getting-started.md', {
      title: 'Getting started',
      description: 'Install Folio and publish your first page in ten minutes.',
      body: GUIDE,
      publish: true,
    });
    await page('guides/publishing.md', { title: 'Publishing', body: 'How publishing works.', publish: true });
    await page('guides/themes.md', { title: 'Themes', body: 'Seven themes.', publish: true });
    await page('reference/tokens.md', { title: 'API tokens', body: 'Tokens and scopes.', publish: true });
    await page('reference/cli.md', { title: 'Command line', body: 'The folio command.', publish: true });
    await setSettings(app.server, app.owner, app.ws, {
      public_site: true,
      site_title: 'Acme Docs',
      site_description: 'Everything about running Acme.',
    });
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 120_000);

  it('renders a page in each of the seven themes, styled under the CSP, and saves screenshots', async () => {
    const shots = new Map<string, Buffer>();
    for (const theme of THEME_NAMES) {
      await setSettings(app.server, app.owner, app.ws, { theme });
      const context = await app.browser.newContext({
        viewport: { width: 1280, height: 900 },
        colorScheme: 'light',
      });
      const tab = await context.newPage();
      const refused: string[] = [];
      tab.on('console', (msg) => {
        if (/Content Security Policy|Refused to/i.test(msg.text())) refused.push(msg.text());
      });
      const res = await tab.goto(`${app.server.url}/p/acme-docs/guides/getting-started`, {
        waitUntil: 'load',
      });
      expect(res?.status(), theme).toBe(200);

      const bg = await tab.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(bg, `${theme}: the theme stylesheet applies`).toBe(hexToRgb(themeDefinition(theme).palette.bg));
      const layout = await tab.evaluate(
        () => getComputedStyle(document.querySelector('.site-body')!).display,
      );
      expect(layout, theme).toBe('grid');
      expect(refused, `${theme}: nothing refused by the CSP`).toEqual([]);

      const shot = await tab.screenshot({ fullPage: true });
      writeFileSync(path.join(ARTIFACTS, `${theme}.png`), shot);
      shots.set(theme, shot);

      const toggle = tab.locator('[data-folio-mode-toggle]');
      if (themeSupportsToggle(theme)) {
        // The nonce'd inline script unhides the toggle; clicking it switches to the dark palette.
        await toggle.click();
        const dark = await tab.evaluate(() => getComputedStyle(document.body).backgroundColor);
        expect(dark, `${theme}: dark mode`).toBe(hexToRgb(themeDefinition(theme).darkPalette!.bg));
        writeFileSync(path.join(ARTIFACTS, `${theme}-dark.png`), await tab.screenshot({ fullPage: false }));
      } else {
        expect(await toggle.count(), theme).toBe(0);
      }
      await context.close();
    }
    // Seven themes, seven different pictures.
    expect(new Set([...shots.values()].map((b) => b.toString('base64'))).size).toBe(THEME_NAMES.length);
  }, 120_000);
});
