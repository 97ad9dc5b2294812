import { main } from './index.js';

// The process entry of the `folio` command: argv in, exit code out.
process.exitCode = await main(process.argv.slice(2));
