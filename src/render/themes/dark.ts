/** Dark theme: a dark-only design: deep slate, sky-blue links and violet accents, for reading at night. */
import { FONT_STACKS, type ThemeDefinition } from './base.js';

export const darkTheme: ThemeDefinition = {
  label: 'Dark',
  scheme: 'dark',
  palette: {
    bg: '#0f172a',
    fg: '#e2e8f0',
    muted: '#a3b1c6',
    link: '#7dd3fc',
    border: '#334155',
    surface: '#131d33',
    accent: '#a78bfa',
    headerBg: '#0b1222',
    headerFg: '#e2e8f0',
    codeBg: '#0b1222',
    codeFg: '#e2e8f0',
    markBg: '#4c3d0b',
    markFg: '#fef9c3',
    note: '#7dd3fc',
    tip: '#6ee7b7',
    important: '#c4b5fd',
    warning: '#fcd34d',
    caution: '#fca5a5',
    hlKeyword: '#c4b5fd',
    hlString: '#86efac',
    hlComment: '#94a3b8',
    hlNumber: '#fdba74',
    hlTitle: '#7dd3fc',
    hlAttr: '#f9a8d4',
    hlBuiltIn: '#fde68a',
    hlMeta: '#94a3b8',
    hlAddition: '#86efac',
    hlDeletion: '#fca5a5',
  },
  fonts: { body: FONT_STACKS.system, heading: FONT_STACKS.neoGrotesque },
  radius: '8px',
  css: `
body{-webkit-font-smoothing:antialiased;-moz-osx-font-smoothing:grayscale}
.site-header{background:color-mix(in srgb,var(--header-bg) 92%,transparent);backdrop-filter:blur(8px)}
.prose h2{padding-bottom:.3em;border-bottom:1px solid var(--border)}
.prose h2,.prose h3{color:#f8fafc}
pre{box-shadow:inset 0 0 0 1px rgb(255 255 255/.03)}
.site-nav a[aria-current=page]{box-shadow:inset 3px 0 0 var(--accent),0 0 0 1px var(--border)}
`,
};
