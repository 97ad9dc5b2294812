import { exitOnFatal } from './fatal.js';
import { main } from './index.js';

// The process entry of the `folio` command: argv in, exit code out. An error that escapes a
// command, or is thrown or rejected with no one to catch it, ends the process with a short
// report instead of Node's own, which prints the whole (minified) line of the bundle it came from.
process.on('uncaughtException', exitOnFatal);
process.on('unhandledRejection', exitOnFatal);
// Not a top-level await: the bundle is CommonJS, to run from V8's code cache (code-cache.ts).
void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
}, exitOnFatal);
