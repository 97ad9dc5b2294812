/** Forest theme: book-like: old-style serif type on warm paper, deep greens, ornamental rules. */
import { FONT_STACKS, type ThemeDefinition } from './base.js';

export const forestTheme: ThemeDefinition = {
  label: 'Forest',
  scheme: 'light',
  palette: {
    bg: '#fbfaf5',
    fg: '#1d2a22',
    muted: '#556259',
    link: '#1b6b3f',
    border: '#d5dccf',
    surface: '#f1f3ea',
    accent: '#2f7d4f',
    headerBg: '#f1f3ea',
    headerFg: '#1d2a22',
    codeBg: '#f0f2e9',
    codeFg: '#1d2a22',
    markBg: '#e6f0b8',
    markFg: '#1d2a22',
    note: '#27638f',
    tip: '#1b6b3f',
    important: '#6b4c9a',
    warning: '#855a00',
    caution: '#a8322d',
    hlKeyword: '#8a3b12',
    hlString: '#1b6b3f',
    hlComment: '#5f6b62',
    hlNumber: '#7a4d00',
    hlTitle: '#27638f',
    hlAttr: '#6b4c9a',
    hlBuiltIn: '#8a3b12',
    hlMeta: '#5f6b62',
    hlAddition: '#1b6b3f',
    hlDeletion: '#a8322d',
  },
  darkPalette: {
    bg: '#0f1a14',
    fg: '#dfe9e2',
    muted: '#9fb2a5',
    link: '#7fd1a0',
    border: '#2c3d32',
    surface: '#14231a',
    accent: '#7fd1a0',
    headerBg: '#14231a',
    headerFg: '#dfe9e2',
    codeBg: '#14231a',
    codeFg: '#dfe9e2',
    markBg: '#3d4a12',
    markFg: '#f2f7da',
    note: '#8cc4ec',
    tip: '#7fd1a0',
    important: '#c9b3f0',
    warning: '#e3bb5c',
    caution: '#f29b8f',
    hlKeyword: '#f0a878',
    hlString: '#9fdcb2',
    hlComment: '#94a89a',
    hlNumber: '#e3bb5c',
    hlTitle: '#8cc4ec',
    hlAttr: '#c9b3f0',
    hlBuiltIn: '#f0a878',
    hlMeta: '#94a89a',
    hlAddition: '#9fdcb2',
    hlDeletion: '#f29b8f',
  },
  fonts: { body: FONT_STACKS.oldStyle, heading: FONT_STACKS.oldStyle },
  radius: '4px',
  css: `
body{font-size:1.125rem;line-height:1.75}
h1,h2{font-weight:600;letter-spacing:0}
h1{font-style:italic}
.prose hr{border:0;text-align:center;overflow:visible}
.prose hr::after{content:"\\2766";color:var(--accent);font-size:1.25rem}
.site-nav{font-family:${FONT_STACKS.humanist};font-size:.9375rem}
.toc-aside,.breadcrumbs,.pager,.site-footer{font-family:${FONT_STACKS.humanist}}
blockquote{font-style:italic}
`,
};
