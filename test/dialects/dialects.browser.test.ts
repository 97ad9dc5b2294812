/**
 * Math and diagrams as a reader's browser shows them: KaTeX's MathML styled by the
 * stylesheet Folio serves, and a Mermaid fence drawn as an SVG by the library Folio serves,
 * both under the published site's CSP with nothing refused; tabs become a keyboard-usable
 * tablist. A screenshot goes to test-artifacts/dialects/.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { describeInChromium, useBrowserApp } from '../helpers/browser.js';
import { setSettings, startPublishing } from '../publishing/publishing-helpers.js';

const ARTIFACTS = path.resolve('test-artifacts/dialects');

const BODY = `# Diagrams and math

The area of a circle is $A = \\pi r^2$, and a sum:

$$
\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}
$$

\`\`\`mermaid
graph TD
  Write[Write a page] --> Review{Reviewed?}
  Review -->|yes| Publish[Publish]
  Review -->|no| Write
\`\`\`

=== "npm"

    Run \`npm install\`.

=== "yarn"

    Run \`yarn add\`.
`;

describeInChromium('dialects in Chromium', () => {
  const app = useBrowserApp({ start: () => startPublishing(), workspace: 'dialect-site' });

  beforeAll(async () => {
    await app.createPage('index.md', { title: 'Home', body: 'Home.', publish: true });
    await app.createPage('diagrams.md', { title: 'Diagrams and math', body: BODY, publish: true });
    await setSettings(app.server, app.owner, app.ws, { public_site: true });
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 120_000);

  it('renders math and a Mermaid diagram under the CSP, and tabs as a tablist', async () => {
    const context = await app.browser.newContext({ viewport: { width: 1100, height: 900 } });
    const tab = await context.newPage();
    const refused: string[] = [];
    tab.on('console', (msg) => {
      if (/Content Security Policy|Refused to/i.test(msg.text())) refused.push(msg.text());
    });
    tab.on('pageerror', (err) => refused.push(`page error: ${err.message}`));
    const res = await tab.goto(`${app.server.url}/p/dialect-site/diagrams`, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).not.toContain('unsafe-inline');

    // Math: MathML inside .katex, with KaTeX's stylesheet applied (its font family).
    expect(await tab.locator('.katex math').count()).toBe(2);
    const font = await tab.evaluate(() => getComputedStyle(document.querySelector('.katex')!).fontFamily);
    expect(font).toContain('KaTeX_Main');

    // Diagram: the code block becomes an SVG with the diagram's labels.
    const svg = tab.locator('.mermaid-diagram svg');
    await svg.waitFor({ timeout: 30_000 });
    expect(await tab.locator('pre.mermaid').count()).toBe(0);
    expect(await svg.textContent()).toContain('Publish');
    const box = await svg.boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(50);

    // Tabs: one panel shown; arrow keys move the selection.
    const tabs = tab.getByRole('tab');
    expect(await tabs.count()).toBe(2);
    await tabs.first().focus();
    await tab.keyboard.press('ArrowRight');
    expect(await tab.getByRole('tab', { name: 'yarn' }).getAttribute('aria-selected')).toBe('true');
    expect(await tab.getByRole('tabpanel').textContent()).toContain('yarn add');

    writeFileSync(path.join(ARTIFACTS, 'math-diagram-tabs.png'), await tab.screenshot({ fullPage: true }));
    expect(refused).toEqual([]);
    await context.close();
  }, 120_000);
});
