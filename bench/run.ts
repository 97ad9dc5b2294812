/**
 * `npm run bench [name…]`: runs the named benchmarks (all by default) and prints
 * Markdown rows for bench/RESULTS.md. Not part of `npm test`.
 */
// Each benchmark is imported only when it runs, so one needing Chromium or PostgreSQL
// does not slow down or break the others.
const BENCHES: Record<string, () => Promise<void>> = {
  startup: async () => (await import('./startup.js')).benchStartup(),
  passwords: async () => (await import('./passwords.js')).benchPasswords(),
  pages: async () => (await import('./pages.js')).benchPages(),
  saves: async () => (await import('./saves.js')).benchSaves(),
  large: async () => (await import('./large.js')).benchLarge(),
  load: async () => (await import('./load.js')).benchLoad(),
  processes: async () => (await import('./processes.js')).benchProcesses(),
  render: async () => (await import('./render.js')).benchRender(),
  search: async () => (await import('./search.js')).benchSearch(),
  'search-pg': async () => (await import('./search-pg.js')).benchSearchPg(),
  site: async () => (await import('./site.js')).benchSite(),
  'site-search': async () => (await import('./site-search.js')).benchSiteSearch(),
  sync: async () => (await import('./sync.js')).benchSync(),
  web: async () => (await import('./web.js')).benchWeb(),
  history: async () => (await import('./history.js')).benchHistory(),
  coedit: async () => (await import('./coedit.js')).benchCoedit(),
  sweep: async () => (await import('./sweep.js')).benchSweep(),
};

const wanted = process.argv.slice(2);
for (const [name, run] of Object.entries(BENCHES)) {
  if (wanted.length && !wanted.includes(name)) continue;
  await run();
}
