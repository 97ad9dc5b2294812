import { type Config, ConfigError } from '../config.js';
import { fileStartError } from '../start-up-error.js';
import { EXIT } from './command.js';

/**
 * Loads the configuration and runs `body` with it; an invalid configuration
 * prints every problem, naming each variable, and exits 1. A file or folder the
 * command cannot read or write is rethrown as a StartupError naming it and DATA_DIR.
 */
export async function withConfig(
  load: () => Config,
  body: (config: Config) => Promise<number>,
): Promise<number> {
  let config: Config;
  try {
    config = load();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`folio: ${error.message}\n`);
      return EXIT.failure;
    }
    throw error;
  }
  try {
    return await body(config);
  } catch (error) {
    throw fileStartError(error, config.dataDir);
  }
}
