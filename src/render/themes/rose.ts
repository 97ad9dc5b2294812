/** Rose theme: soft and friendly: rose tints, rounded shapes and a geometric sans-serif. */
import { FONT_STACKS, type ThemeDefinition } from './base.js';

export const roseTheme: ThemeDefinition = {
  label: 'Rose',
  scheme: 'light',
  palette: {
    bg: '#fffafb',
    fg: '#2d1f24',
    muted: '#6b5660',
    link: '#b0204f',
    border: '#f0d6de',
    surface: '#fdf0f3',
    accent: '#d0386a',
    headerBg: '#fdf0f3',
    headerFg: '#2d1f24',
    codeBg: '#fbeef2',
    codeFg: '#2d1f24',
    markBg: '#ffe0ea',
    markFg: '#2d1f24',
    note: '#2f5f9e',
    tip: '#23704a',
    important: '#7d3ca8',
    warning: '#8a5200',
    caution: '#b3261e',
    hlKeyword: '#a3154a',
    hlString: '#23704a',
    hlComment: '#6b5660',
    hlNumber: '#8a4a00',
    hlTitle: '#7d3ca8',
    hlAttr: '#2f5f9e',
    hlBuiltIn: '#a3154a',
    hlMeta: '#6b5660',
    hlAddition: '#23704a',
    hlDeletion: '#b3261e',
  },
  darkPalette: {
    bg: '#1c1417',
    fg: '#f3e6ea',
    muted: '#bba5ad',
    link: '#f7a1bd',
    border: '#3d2b32',
    surface: '#241a1e',
    accent: '#f07aa0',
    headerBg: '#241a1e',
    headerFg: '#f3e6ea',
    codeBg: '#241a1e',
    codeFg: '#f3e6ea',
    markBg: '#5a2238',
    markFg: '#fff0f5',
    note: '#9cc3f5',
    tip: '#8bd6ad',
    important: '#d3b0f2',
    warning: '#efc06a',
    caution: '#f7a29a',
    hlKeyword: '#f7a1bd',
    hlString: '#8bd6ad',
    hlComment: '#b09aa3',
    hlNumber: '#efc06a',
    hlTitle: '#d3b0f2',
    hlAttr: '#9cc3f5',
    hlBuiltIn: '#f7a1bd',
    hlMeta: '#b09aa3',
    hlAddition: '#8bd6ad',
    hlDeletion: '#f7a29a',
  },
  fonts: { body: FONT_STACKS.geometricHumanist, heading: FONT_STACKS.geometricHumanist },
  radius: '14px',
  css: `
h1,h2,h3{font-weight:600}
h1{color:var(--link)}
.site-nav a{border-radius:999px;padding-left:.875rem}
.site-nav a[aria-current=page]{box-shadow:inset 0 0 0 1px var(--accent)}
.callout{border-left-width:0;border:1px solid color-mix(in srgb,var(--c) 35%,var(--bg))}
.site-search input{border-radius:999px;padding-left:1rem}
.pager a{border-radius:var(--radius)}
`,
};
