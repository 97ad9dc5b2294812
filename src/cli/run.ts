import { exitOnFatal } from './fatal.js';
import { main } from './index.js';

// The process entry of the `folio` command: argv in, exit code out. An error that escapes a
// command, or is thrown or rejected with no one to catch it, ends the process with a short
// report instead of Node's own, which prints the whole (minified) line of the bundle it came from.
process.on('uncaughtException', exitOnFatal);
process.on('unhandledRejection', exitOnFatal);
process.exitCode = await main(process.argv.slice(2)).catch(exitOnFatal);
