#!/usr/bin/env -S node --max-semi-space-size=2 --min-semi-space-size=2 --heap-growing-percent=50 --v8-pool-size=0
// The `folio` command. It runs the bundled CLI in dist/ (built by `npm ci` or `npm run build`).
// A young generation of 2 MB instead of V8's 16 MB keeps a busy server's memory about a
// fifth lower (bench/RESULTS.md, load); starting it at 2 MB rather than growing it from
// 1 MB saves a start many scavenges (bench/RESULTS.md, startup). V8's helper threads (for
// garbage collection and compiling) are as many as the machine has cores besides this one,
// not a fixed four: on two cores, three threads less and about 1.5 MB less at rest.
// The old generation may grow by half of what survived its last full collection before
// the next one, not by up to four times: V8 picked four after the start's collection, so
// a busy server climbed about 40 MB above what it needed before its first full
// collection (bench/RESULTS.md, load). `npm start` passes the same.
//
// CommonJS (bin/package.json), like the bundle it runs: an ES module entry would start
// Node's ES module loader for this one file.
'use strict';
const { existsSync } = require('node:fs');
const path = require('node:path');

// Every file read, write and fsync waits for one of libuv's threads; with its default of
// four, a few slow fsyncs of page writes held up the reads queued behind them. Set before
// anything uses the pool, which is when libuv reads it; an operator's own value wins.
process.env.UV_THREADPOOL_SIZE ??= '16';

const entry = path.join(__dirname, '../dist/folio.js');
if (!existsSync(entry)) {
  console.error('folio: dist/ is missing. Run `npm ci` (or `npm run build`) first.');
  process.exit(1);
}
// Compiled from V8's code cache where there is one (src/cli/code-cache.ts). Run as plain
// `node bin/folio.js`, without the flags above, the young generation may grow to 4 MB
// while the bundle loads and then stays there (src/cli/young-generation.ts).
const growYoungGeneration = !process.execArgv.some((arg) => arg.startsWith('--max-semi-space-size'));
require('../dist/code-cache.js').runWithCodeCache(entry, { growYoungGeneration });
