import { describe, expect, it } from 'vitest';
import {
  THEME_NAMES,
  isThemeName,
  themeCss,
  themeCssHash,
  themeDefinition,
  themeSupportsToggle,
  type ThemeName,
} from './themes.js';

function luminance(hex: string): number {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`);
  const [r, g, b] = m.slice(1).map((h) => {
    const c = parseInt(h, 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** `color-mix(in srgb, a p%, b)`, as browsers compute it (gamma-encoded interpolation). */
function mix(a: string, b: string, p: number): string {
  const ch = (hex: string, i: number) => parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16);
  return `#${[0, 1, 2]
    .map((i) =>
      Math.round(ch(a, i) * p + ch(b, i) * (1 - p))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** Custom properties declared in the first rule whose selector is exactly `selector`. */
function variables(css: string, selector: string): Record<string, string> {
  const start = css.indexOf(`${selector}{`);
  if (start === -1) throw new Error(`no ${selector} block`);
  const block = css.slice(start + selector.length + 1, css.indexOf('}', start));
  return Object.fromEntries(
    [...block.matchAll(/--([\w-]+):([^;]+)/g)].map((m) => [m[1], (m[2] ?? '').trim()]),
  );
}

const TEXT_PAIRS: Array<[string, string]> = [
  ['fg', 'bg'],
  ['link', 'bg'],
  ['muted', 'bg'],
  ['fg', 'surface'],
  ['link', 'surface'],
  ['muted', 'surface'],
  ['header-fg', 'header-bg'],
  ['code-fg', 'code-bg'],
  ['mark-fg', 'mark-bg'],
  ...[
    'keyword',
    'string',
    'comment',
    'number',
    'title',
    'attr',
    'built-in',
    'meta',
    'addition',
    'deletion',
  ].map((t): [string, string] => [`hl-${t}`, 'code-bg']),
];

function checkPalette(v: Record<string, string>, label: string): void {
  for (const [fg, bg] of TEXT_PAIRS) {
    const ratio = contrast(v[fg] ?? '', v[bg] ?? '');
    expect(ratio, `${label}: --${fg} on --${bg}`).toBeGreaterThanOrEqual(4.5);
  }
  for (const kind of ['note', 'tip', 'important', 'warning', 'caution']) {
    const tint = mix(v[kind] ?? '', v.bg ?? '', 0.1); // .callout background
    for (const text of [kind, 'fg', 'link'])
      expect(contrast(v[text] ?? '', tint), `${label}: --${text} on ${kind} callout`).toBeGreaterThanOrEqual(
        4.5,
      );
  }
  expect(contrast(v.accent ?? '', v.bg ?? ''), `${label}: focus ring`).toBeGreaterThanOrEqual(3);
}

describe('themes', () => {
  it('offers exactly the theme names the API documents', () => {
    expect([...THEME_NAMES]).toEqual(['default', 'dark', 'forest', 'rose', 'amber', 'minimal', 'corporate']);
    expect(isThemeName('forest')).toBe(true);
    expect(isThemeName('Forest')).toBe(false);
    expect(isThemeName(undefined)).toBe(false);
    expect(isThemeName('toString')).toBe(false);
  });

  it.each(THEME_NAMES)('%s produces complete, cached CSS', (name: ThemeName) => {
    const css = themeCss(name);
    expect(css).toBe(themeCss(name));
    for (const selector of [
      '.site-header',
      '.site-nav',
      '.toc-aside',
      '.breadcrumbs',
      '.pager',
      '.site-footer',
    ])
      expect(css).toContain(selector);
    expect(css).toContain('@media print');
    expect(css).toContain('.hljs-keyword');
    expect(css).toContain('.callout-warning');
    expect(css).toContain('--measure:');
    expect(css).not.toMatch(/@import|@font-face|url\(/);
    expect(themeCssHash(name)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('gives every theme its own stylesheet', () => {
    expect(new Set(THEME_NAMES.map((n) => themeCss(n))).size).toBe(THEME_NAMES.length);
    expect(new Set(THEME_NAMES.map((n) => themeCssHash(n))).size).toBe(THEME_NAMES.length);
  });

  it('offers the light/dark toggle only where the theme has a dark variant', () => {
    const toggles = THEME_NAMES.filter((n) => themeSupportsToggle(n));
    expect(toggles).toEqual(['default', 'forest', 'rose', 'amber', 'corporate']);
    for (const name of toggles) {
      expect(themeCss(name)).toContain(':root[data-mode=dark]{');
      expect(themeCss(name)).toContain('@media (prefers-color-scheme:dark){:root:not([data-mode=light])');
    }
    expect(themeCss('dark')).not.toContain('data-mode=dark');
    expect(themeDefinition('dark').scheme).toBe('dark');
  });

  it.each(THEME_NAMES)('%s meets WCAG AA contrast (4.5:1) in every mode', (name: ThemeName) => {
    const css = themeCss(name);
    checkPalette(variables(css, ':root'), name);
    if (themeSupportsToggle(name)) checkPalette(variables(css, ':root[data-mode=dark]'), `${name} (dark)`);
  });

  it('uses system fonts only', () => {
    for (const name of THEME_NAMES) {
      const { fonts } = themeDefinition(name);
      expect(fonts.body).toMatch(/(?:sans-serif|serif)$/);
      expect(fonts.heading).toMatch(/(?:sans-serif|serif)$/);
    }
  });
});
