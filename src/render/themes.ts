/**
 * The published site's themes. Each theme's stylesheet is the shared layout plus the theme's
 * custom properties and a few rules of its own, assembled once per process.
 */
import { createHash } from 'node:crypto';
import { amberTheme } from './themes/amber.js';
import {
  BASE_CSS,
  FONT_STACKS,
  PRINT_PALETTE,
  paletteDeclarations,
  type ThemeDefinition,
} from './themes/base.js';
import { corporateTheme } from './themes/corporate.js';
import { darkTheme } from './themes/dark.js';
import { defaultTheme } from './themes/default.js';
import { forestTheme } from './themes/forest.js';
import { minimalTheme } from './themes/minimal.js';
import { roseTheme } from './themes/rose.js';

export type { Palette, ThemeDefinition } from './themes/base.js';

/** Every theme name a workspace setting may hold, in display order. */
export const THEME_NAMES = ['default', 'dark', 'forest', 'rose', 'amber', 'minimal', 'corporate'] as const;

/** One of {@link THEME_NAMES}. */
export type ThemeName = (typeof THEME_NAMES)[number];

const THEMES: Record<ThemeName, ThemeDefinition> = {
  default: defaultTheme,
  dark: darkTheme,
  forest: forestTheme,
  rose: roseTheme,
  amber: amberTheme,
  minimal: minimalTheme,
  corporate: corporateTheme,
};

/** Type guard for settings input and stored values. */
export function isThemeName(x: unknown): x is ThemeName {
  return typeof x === 'string' && (THEME_NAMES as readonly string[]).includes(x);
}

/** The theme's definition (palettes, fonts); read-only, for tests and the settings UI. */
export function themeDefinition(name: ThemeName): Readonly<ThemeDefinition> {
  return THEMES[name];
}

/**
 * Whether the theme has a dark variant, so the page offers a light/dark toggle and
 * follows `prefers-color-scheme`. `dark` is dark by design and `minimal` is
 * monochrome on white by design, so they have none.
 */
export function themeSupportsToggle(name: ThemeName): boolean {
  return THEMES[name].darkPalette !== undefined;
}

function buildCss(theme: ThemeDefinition): string {
  const fonts =
    `--font-body:${theme.fonts.body};--font-heading:${theme.fonts.heading};` +
    `--font-mono:${theme.fonts.mono ?? FONT_STACKS.mono};--radius:${theme.radius}`;
  const parts = [`:root{${fonts};${paletteDeclarations(theme.palette, theme.scheme)}}`];
  if (theme.darkPalette) {
    // An explicit choice (data-mode, set by the toggle) wins over the OS preference.
    const dark = paletteDeclarations(theme.darkPalette, 'dark');
    parts.push(`:root[data-mode=dark]{${dark}}`);
    parts.push(`@media (prefers-color-scheme:dark){:root:not([data-mode=light]){${dark}}}`);
  }
  parts.push(BASE_CSS.trim(), theme.css.trim());
  parts.push(
    `@media print{:root,:root[data-mode]{${paletteDeclarations(PRINT_PALETTE, 'light', '!important')}}}`,
  );
  return parts.join('\n') + '\n';
}

const cssCache = new Map<ThemeName, { css: string; hash: string }>();

function compiled(name: ThemeName): { css: string; hash: string } {
  let entry = cssCache.get(name);
  if (!entry) {
    const css = buildCss(THEMES[name]);
    entry = { css, hash: createHash('sha256').update(css).digest('hex').slice(0, 16) };
    cssCache.set(name, entry);
  }
  return entry;
}

/** The complete stylesheet for a theme (layout + theme), built once and cached. */
export function themeCss(name: ThemeName): string {
  return compiled(name).css;
}

/**
 * A short content hash of {@link themeCss}: use it in the stylesheet URL
 * (`theme.css?v=…`) so it can be cached immutably, and as its ETag.
 */
export function themeCssHash(name: ThemeName): string {
  return compiled(name).hash;
}

/**
 * The theme's favicon: an SVG square in its accent colour with the page background's
 * colour as the mark, so every site has an icon that matches it (and browsers stop
 * asking for a /favicon.ico that is not there).
 */
export function themeFavicon(name: ThemeName): string {
  const { accent, bg } = THEMES[name].palette;
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
    `<rect width="32" height="32" rx="7" fill="${accent}"/>` +
    `<path d="M11 7h11v4h-7v4h6v4h-6v6h-4z" fill="${bg}"/></svg>\n`
  );
}
