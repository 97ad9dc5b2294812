/**
 * `npm run bench [name…]`: runs the named benchmarks (all by default) and prints
 * Markdown rows for bench/RESULTS.md. Not part of `npm test`.
 */
import { benchPages } from './pages.js';
import { benchPasswords } from './passwords.js';
import { benchRender } from './render.js';
import { benchSearch } from './search.js';
import { benchSite } from './site.js';
import { benchStartup } from './startup.js';
import { benchSync } from './sync.js';
import { benchWeb } from './web.js';

const BENCHES: Record<string, () => Promise<void>> = {
  startup: benchStartup,
  passwords: benchPasswords,
  pages: benchPages,
  render: benchRender,
  search: benchSearch,
  site: benchSite,
  sync: benchSync,
  web: benchWeb,
};

const wanted = process.argv.slice(2);
for (const [name, run] of Object.entries(BENCHES)) {
  if (wanted.length && !wanted.includes(name)) continue;
  await run();
}
