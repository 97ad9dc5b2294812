/**
 * The production build (`npm run build`, run by `npm ci` through `prepare`): the CLI and
 * server as one file, dist/folio.js, plus chunks for code that loads on first use (the
 * Markdown renderer, for one), all CommonJS so that bin/folio.js runs them from V8's
 * code cache (src/cli/code-cache.ts).
 *
 * Why a bundle: Node resolves and evaluates every module file on its own, and Folio's
 * dependency graph is several hundred files (Kysely alone ships 260). Loading one file
 * instead roughly halves the time from `npm start` to a healthy server.
 *
 * Left outside the bundle: native addons, which cannot be bundled, and packages that are
 * only loaded when a feature is in use (PostgreSQL, Redis, SMTP, MCP), so they stay out
 * of the start-up path entirely. Every package that Folio's code loads with `import()`
 * stays outside too: Folio loads them with importPackage (src/lib/import-package.ts), which
 * calls Node's own `import()`, so the bundle sees the same module namespaces as the sources.
 * Packages required on first use through src/lib/lazy-package.ts (yaml, the argon2
 * addon) are invisible to esbuild, so Node resolves them from node_modules at run time.
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
 * The writers' web app (web/) is built by Vite into <outdir>/web, which the server serves
 * at `/` (src/http/web-app.ts); each JavaScript and CSS file also gets a gzipped copy so
 * the server sends the compressed bytes without compressing on every request.
 *
 * Usage: node scripts/build.mjs [--web | --server] [outdir]
 *   (default: dist; --web builds only the app, --server only the bundle, keeping the app)
 */
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import process from 'node:process';
import path from 'node:path';
import { build } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const webOnly = args.includes('--web');
const serverOnly = args.includes('--server');
const outdir = path.resolve(ROOT, args.find((a) => !a.startsWith('--')) ?? 'dist');

const EXTERNAL = [
  // Native addons.
  'better-sqlite3',
  '@node-rs/argon2',
  // Loaded on first use. (pino is bundled: Folio logs to a stream, never through pino's
  // transports, the one part of it that starts worker threads from its own files; loading
  // it from node_modules cost about 60 ms of resolving and compiling files at every start.)
  'pg',
  'ioredis',
  'nodemailer',
  '@modelcontextprotocol/sdk',
  'stripe',
  // Fastify's default schema compilers (Ajv, fast-json-stringify): Folio gives its own zod
  // ones at construction (src/http/route-schemas.ts), so Fastify never requires these; left
  // outside, their 440 KB are not compiled at every start either.
  '@fastify/ajv-compiler',
  '@fastify/fast-json-stringify-compiler',
];

if (!webOnly) await buildServer();
if (!serverOnly) await buildWebApp();

async function buildServer() {
  if (serverOnly) {
    // Only the bundle's own files: the web app beside it stays.
    const names = await readdir(outdir).catch(() => []);
    for (const name of names.filter(
      (n) =>
        ['chunks', 'site-assets', '.code-cache', '.esm', 'package.json'].includes(n) ||
        /^(?:folio|code-cache|render-worker|import-worker)\.js/.test(n),
    ))
      await rm(path.join(outdir, name), { recursive: true, force: true });
  } else await rm(outdir, { recursive: true, force: true });
  // First as ES modules split into chunks, into a staging directory, then each output file
  // converted to CommonJS in place (toCommonJs), so that bin/folio.js can run the code from
  // V8's code cache (src/cli/code-cache.ts). esbuild splits only ES modules.
  const staging = path.join(outdir, '.esm');
  const { metafile } = await build({
    absWorkingDir: ROOT,
    // The render and import workers are entries of their own: worker threads start from a
    // file (render-pool.ts, imports/convert-pool.ts). The code cache's loader is one too:
    // bin/folio.js requires it before the rest.
    entryPoints: {
      folio: 'src/cli/run.ts',
      'code-cache': 'src/cli/code-cache.ts',
      'render-worker': 'src/render/render-worker.ts',
      'import-worker': 'src/services/imports/convert-worker.ts',
    },
    outdir: staging,
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
    metafile: true,
    plugins: [
      packagesImportedThroughLoader(),
      zodAsNamespace(),
      constructedOnFirstUse(['@fastify/busboy', 'duplexify']),
      routerWithoutEval(),
    ],
    logLevel: 'warning',
  });
  await toCommonJs(
    staging,
    Object.keys(metafile.outputs).filter((file) => file.endsWith('.js')),
  );
  await rm(staging, { recursive: true, force: true });
  await buildSiteAssets();
}

/**
 * Converts the staged ES module files to CommonJS files of the same names in <outdir>,
 * source maps chained back to src/. Static imports of chunks become `require` at the top,
 * `import()` of a chunk becomes a `require` in a promise (a script run from a code cache
 * cannot call `import()`; packages go through src/lib/import-package.ts instead), and
 * `import.meta.url` is the file's own URL. dist/package.json tells Node the files are CommonJS.
 */
async function toCommonJs(staging, files) {
  await build({
    absWorkingDir: ROOT,
    entryPoints: files.map((file) => path.resolve(ROOT, file)),
    outbase: staging,
    outdir,
    bundle: false,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    supported: { 'dynamic-import': false },
    define: { 'import.meta.url': '__folioModuleUrl' },
    banner: { js: 'var __folioModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
    sourcemap: 'linked',
    minifyWhitespace: true,
    charset: 'ascii',
    logLevel: 'warning',
  });
  for (const file of await readdir(staging, { recursive: true }))
    if (file.endsWith('.LEGAL.txt')) await rename(path.join(staging, file), path.join(outdir, file));
  await writeFile(path.join(outdir, 'package.json'), '{ "type": "commonjs" }\n');
}

/**
 * The published site's search palette (src/render/site-assets), minified into <outdir>/site-assets, where the bundled server looks for them
 * (src/render/palette.ts); from the sources the server reads them unminified.
 */
async function buildSiteAssets() {
  const { transform } = await import('esbuild');
  const dir = path.join(outdir, 'site-assets');
  await mkdir(dir, { recursive: true });
  const src = path.join(ROOT, 'src/render/site-assets');
  for (const [name, file, loader] of [
    ['palette.js', path.join(src, 'palette.js'), 'js'],
    ['palette.css', path.join(src, 'palette.css'), 'css'],
  ]) {
    const { code } = await transform(await readFile(file, 'utf8'), { loader, minify: true, charset: 'utf8' });
    await writeFile(path.join(dir, name), code);
  }
}

/**
 * Refuses `import('<package>')` in Folio's code: in the CommonJS bundle it would become a
 * `require`, whose module namespace differs from `import()`'s (an ES module's default
 * export, say). Packages loaded on first use go through importPackage
 * (src/lib/import-package.ts), which esbuild does not see, so Node loads them from node_modules.
 */
function packagesImportedThroughLoader() {
  return {
    name: 'packages-imported-through-loader',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) =>
        args.kind === 'dynamic-import' && !args.path.startsWith('node:')
          ? {
              errors: [
                {
                  text: `import('${args.path}'): load packages on first use with importPackage() (src/lib/import-package.ts)`,
                },
              ],
            }
          : undefined,
      );
    },
  };
}

/**
 * Packages that a dependency requires when it loads but only constructs when a feature is
 * used: @fastify/multipart's form parser (`new Busboy(options)`) on an upload, and
 * @fastify/websocket's duplexify (with readable-stream, 70 KB) only in its test helper
 * `injectWS`. Each is replaced by a constructor that requires the real package from
 * node_modules the first time it is called, so about 100 KB leave the start-up code.
 * Only for packages whose export is used solely as a constructor.
 */
function constructedOnFirstUse(names) {
  const filter = new RegExp(`^(?:${names.map((n) => n.replace(/[/.]/g, '\\$&')).join('|')})$`);
  return {
    name: 'constructed-on-first-use',
    setup(build) {
      build.onResolve({ filter }, (args) =>
        // The stand-in's own require of the package is left to Node.
        args.namespace === 'on-first-use'
          ? { path: args.path, external: true }
          : { path: args.path, namespace: 'on-first-use' },
      );
      build.onLoad({ filter: /.*/, namespace: 'on-first-use' }, (args) => ({
        contents: `let real; module.exports = function (...args) { real ??= require(${JSON.stringify(args.path)}); return new real(...args); };`,
        loader: 'js',
        resolveDir: ROOT,
      }));
    },
  };
}

/**
 * find-my-way (Fastify's router) compiles functions with `new Function` while the routes
 * are registered: one matching each static node's prefix of 2 to 15 characters, and one
 * building each route's params object, a few hundred of each at every start, each parsed
 * and compiled by V8 and never in the code cache. The bundle matches those prefixes with
 * `String#startsWith`, as the router already does for longer ones (it has checked the first
 * character before it calls the match, so the answer is the same), and builds the params
 * object in a loop over the route's parameter names, with the values arriving by position
 * as before. The build fails if the code is not found, so an upgrade of the router is
 * noticed.
 */
function routerWithoutEval() {
  const replacements = [
    {
      file: /[\\/]find-my-way[\\/]lib[\\/]node\.js$/,
      compiled:
        /return new Function\('path', 'i', `'use strict'\\nreturn \$\{lines\.join\(' && '\)\}`\)[^\n]*/,
      plain: 'return function matchPrefix (path, i) { return path.startsWith(prefix, i) }',
    },
    {
      file: /[\\/]find-my-way[\\/]lib[\\/]handler-storage\.js$/,
      compiled:
        /_compileCreateParamsObject \(params\) \{\n[\s\S]*?return new Function\('NullObject', fnBody\.join\('\\n'\)\)\(NullObject\)[^\n]*\n {2}\}/,
      plain: `_compileCreateParamsObject (params) {
    return function _createParamsObject (param0, param1, param2, param3, extraParams) {
      const result = new NullObject()
      for (let i = 0; i < params.length; i++) result[params[i]] = i < 4 ? arguments[i] : extraParams[i - 4]
      return result
    }
  }`,
    },
  ];
  return {
    name: 'router-without-eval',
    setup(build) {
      for (const { file, compiled, plain } of replacements) {
        build.onLoad({ filter: file }, async (args) => {
          const source = await readFile(args.path, 'utf8');
          if (!compiled.test(source))
            throw new Error(`${args.path}: find-my-way's compiled function was not found`);
          return { contents: source.replace(compiled, plain), loader: 'js' };
        });
      }
    },
  };
}

/**
 * Folio's sources write `import { z } from 'zod'`, and zod's entry hands out `z` as a
 * re-exported namespace object, which esbuild cannot tree-shake: every zod export came
 * along, its 40-odd locales, JSON Schema import and code generator included (600 KB of
 * the start-up code; `import * as z` keeps about a fifth). The bundle reads those imports
 * as `import * as z from 'zod'`, the same bindings, so only what Folio calls is kept.
 * (English error messages are installed by zod's schemas module, not by the locales.)
 */
function zodAsNamespace() {
  const NAMED_Z = /^import \{ z \} from 'zod';$/m;
  return {
    name: 'zod-as-namespace',
    setup(build) {
      build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        if (!NAMED_Z.test(source)) return undefined;
        return { contents: source.replace(NAMED_Z, "import * as z from 'zod';"), loader: 'ts' };
      });
    },
  };
}

async function buildWebApp() {
  const webOut = path.join(outdir, 'web');
  const { build: viteBuild } = await import('vite');
  await viteBuild({
    configFile: path.join(ROOT, 'web/vite.config.ts'),
    build: { outDir: webOut, emptyOutDir: true },
    logLevel: 'warn',
  });
  for (const entry of await readdir(webOut, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(?:js|css|svg)$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    await writeFile(`${file}.gz`, gzipSync(await readFile(file), { level: 9 }));
  }
}
