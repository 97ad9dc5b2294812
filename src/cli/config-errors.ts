import { type Config, ConfigError } from '../config.js';
import { EXIT } from './command.js';

/**
 * Loads the configuration and runs `body` with it; an invalid configuration
 * prints every problem, naming each variable, and exits 1.
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
  return body(config);
}
