#!/usr/bin/env node
// The `folio` command. It runs the bundled CLI in dist/ (built by `npm ci` or `npm run build`).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/folio.js', import.meta.url);
if (!existsSync(entry)) {
  console.error('folio: dist/ is missing. Run `npm ci` (or `npm run build`) first.');
  process.exit(1);
}
await import(entry.href);
