/** Minimal theme: black on white, serif text, no colour and no chrome: just the words. */
import { FONT_STACKS, type ThemeDefinition } from './base.js';

export const minimalTheme: ThemeDefinition = {
  label: 'Minimal',
  scheme: 'light',
  palette: {
    bg: '#ffffff',
    fg: '#111111',
    muted: '#555555',
    link: '#111111',
    border: '#e0e0e0',
    surface: '#ffffff',
    accent: '#111111',
    headerBg: '#ffffff',
    headerFg: '#111111',
    codeBg: '#f5f5f5',
    codeFg: '#111111',
    markBg: '#eeeeee',
    markFg: '#111111',
    note: '#333333',
    tip: '#333333',
    important: '#333333',
    warning: '#333333',
    caution: '#111111',
    hlKeyword: '#111111',
    hlString: '#444444',
    hlComment: '#5c5c5c',
    hlNumber: '#333333',
    hlTitle: '#111111',
    hlAttr: '#333333',
    hlBuiltIn: '#333333',
    hlMeta: '#5c5c5c',
    hlAddition: '#1f5f2a',
    hlDeletion: '#8a1c1c',
  },
  fonts: { body: FONT_STACKS.transitional, heading: FONT_STACKS.system },
  radius: '0',
  css: `
html{--measure:66ch}
.site-header{border-bottom:0}
.site-body{gap:3rem}
.site-nav a[aria-current=page]{background:none;box-shadow:none;text-decoration:underline;text-decoration-thickness:2px}
.site-nav a:hover{background:none}
.site-nav ul ul{border-left:0}
th{background:none;border-width:0 0 1px}
td{border-width:0 0 1px}
.callout{background:none;border-left-width:2px}
pre{border:0}
.pager a{border:0;padding-left:0;padding-right:0;text-decoration:underline}
`,
};
