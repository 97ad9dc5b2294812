/**
 * The production build (`npm run build`, run by `npm ci` through `prepare`): the CLI and
 * server as one ES module, dist/folio.js, plus chunks for code that loads on first use
 * (the Markdown renderer, for one).
 *
 * Why a bundle: Node resolves and evaluates every ES module file on its own, and Folio's
 * dependency graph is several hundred files (Kysely alone ships 260). Loading one file
 * instead roughly halves the time from `npm start` to a healthy server.
 *
 * Left outside the bundle: native addons, which cannot be bundled, and packages that are
 * only loaded when a feature is in use (PostgreSQL, Redis, SMTP, MCP), so they stay out
 * of the start-up path entirely.
 *
 * The code loaded at start is ASCII without comments (test/cli/build.test.ts checks it).
 * V8 keeps each module's source text in memory for as long as the process runs, and a
 * single non-ASCII character anywhere (a dash in a comment) makes it store the whole file
 * at two bytes a character: 7.8 MB of the idle server's heap instead of 2.6. Escapes
 * (`\u2019`) keep Folio's own strings, regexps and SQL templates ASCII. Whitespace
 * minification drops the comments and keeps every name, so stack traces still say which
 * function failed; the linked source maps (`NODE_OPTIONS=--enable-source-maps`) give the
 * TypeScript lines. Licence comments go to a `.LEGAL.txt` file beside each output file.
 *
 * Usage: node scripts/build.mjs [outdir]   (default: dist)
 */
import { rm } from 'node:fs/promises';
import process from 'node:process';
import path from 'node:path';
import { build } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..');
const outdir = path.resolve(ROOT, process.argv[2] ?? 'dist');

const EXTERNAL = [
  // Native addons.
  'better-sqlite3',
  '@node-rs/argon2',
  // Loaded on first use.
  'pg',
  'ioredis',
  'nodemailer',
  '@modelcontextprotocol/sdk',
  // pino starts transports in worker threads by file path.
  'pino',
];

await rm(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: ROOT,
  // The render worker is its own entry: worker threads start from a file (render-pool.ts).
  entryPoints: { folio: 'src/cli/run.ts', 'render-worker': 'src/render/render-worker.ts' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  sourcemap: 'linked',
  minifyWhitespace: true,
  charset: 'ascii',
  legalComments: 'linked',
  external: EXTERNAL,
  // Bundled CommonJS dependencies call `require` for Node's built-ins; give them one.
  banner: {
    js: "import { createRequire as __folioCreateRequire } from 'node:module'; const require = __folioCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
