import fs from 'node:fs';
import path from 'node:path';
import { runProcess } from './cli.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const WEB = path.join(ROOT, 'web');
const SRC = path.join(ROOT, 'src');
/** Server modules the web app imports too (links.ts and what it imports), so both resolve links alike. */
const SHARED = ['src/render/links.ts', 'src/domain/link-syntax.ts'].map((file) => path.join(ROOT, file));
const BUILT = path.join(ROOT, 'dist/web/index.html');
const BUNDLE = path.join(ROOT, 'dist/folio.js');
const LOCK = path.join(ROOT, 'dist/.web-build.lock');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

const newerThan = (file: string, source: () => number) =>
  fs.existsSync(file) && fs.statSync(file).mtimeMs >= source();
const webFresh = () =>
  newerThan(BUILT, () => Math.max(newestMtime(WEB), ...SHARED.map((file) => fs.statSync(file).mtimeMs)));
const serverFresh = () => newerThan(BUNDLE, () => newestMtime(SRC));

/**
 * Makes sure dist/web holds a build of the current web/ sources, which the test
 * server serves at `/`. `npm ci` builds it; after an edit of web/, the first
 * browser suite rebuilds it (`scripts/build.mjs --web`) while the others wait.
 */
export const ensureWebAppBuilt = (): Promise<void> => ensureBuilt(webFresh, '--web', 'web app');

/**
 * Makes sure dist/folio.js (what `bin/folio.js` runs) is a bundle of the current src/, for
 * suites that run the server as its own process; rebuilt (`scripts/build.mjs --server`) after an edit.
 */
export const ensureServerBuilt = (): Promise<void> => ensureBuilt(serverFresh, '--server', 'server');

async function ensureBuilt(fresh: () => boolean, flag: string, what: string): Promise<void> {
  if (fresh()) return;
  fs.mkdirSync(path.dirname(LOCK), { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(LOCK);
      break;
    } catch {
      // Another suite is building: wait for it, then use its build.
      await new Promise((r) => setTimeout(r, 500));
      if (fresh()) return;
      const stale = fs.existsSync(LOCK) && Date.now() - fs.statSync(LOCK).mtimeMs > 300_000;
      if (stale) fs.rmSync(LOCK, { recursive: true, force: true });
    }
  }
  try {
    if (fresh()) return;
    const build = await runProcess(process.execPath, [path.join(ROOT, 'scripts/build.mjs'), flag], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
      timeoutMs: 280_000,
    });
    if (build.code !== 0) throw new Error(`${what} build failed:\n${build.stderr}`);
  } finally {
    fs.rmSync(LOCK, { recursive: true, force: true });
  }
}
