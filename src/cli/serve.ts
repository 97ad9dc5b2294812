import { type Config, loadConfig } from '../config.js';
import { createFolio } from '../main.js';
import { DataDirInUseError } from '../server-lock.js';
import { type Command, EXIT } from './command.js';
import { withConfig } from './config-errors.js';

/**
 * `folio serve`: the server, until SIGTERM or SIGINT asks it to finish in-flight work and
 * stop. A port already in use is said in one line (exit 1), not as a stack trace. With
 * FOLIO_PROCESSES above 1 it runs that many server processes on the port (cluster.ts).
 */
export const serveCommand: Command = {
  name: 'serve',
  summary: 'Run the Folio server (the default command)',
  usage: 'folio serve',
  run: () =>
    withConfig(loadConfig, async (config) => {
      // The cluster code is loaded only when several processes are asked for.
      if (config.processes > 1) return (await import('./cluster.js')).serveProcesses(config, serveHere);
      return serveHere(config);
    }),
};

/**
 * One server in this process until SIGTERM or SIGINT; resolves with the exit code.
 * `onListening` hears the bound address once the server is listening and started.
 */
export async function serveHere(config: Config, onListening?: (address: string) => void): Promise<number> {
  const folio = await createFolio(config);
  let address: string;
  try {
    address = await folio.listen();
  } catch (error) {
    await folio.close();
    if (error instanceof DataDirInUseError) {
      process.stderr.write(`folio: ${error.message}\n`);
      return EXIT.failure;
    }
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    process.stderr.write(`folio: port ${config.port} is in use; set PORT\n`);
    return EXIT.failure;
  }
  folio.logger.info(
    { address, data_dir: config.dataDir, database: folio.store.dialect },
    'Folio is listening',
  );
  onListening?.(address);
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      folio.logger.info({ signal }, 'shutting down');
      void folio.close().then(resolve, (error: unknown) => {
        folio.logger.error({ err: error }, 'shutdown failed');
        resolve();
      });
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  return 0;
}
