import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { createCore } from '../core.js';
import { createLogger } from '../logger.js';
import { type Command, EXIT } from './command.js';
import { withConfig } from './config-errors.js';

/**
 * `folio reset-password --email E`: prints a one-time reset link on stdout,
 * for instances without mail. Logs go to stderr only.
 */
export const resetPasswordCommand: Command = {
  name: 'reset-password',
  summary: 'Print a one-time password-reset link for a user',
  usage: 'folio reset-password --email EMAIL',
  async run(args) {
    const { values } = parseArgs({ args, options: { email: { type: 'string' } }, strict: true });
    if (!values.email) {
      process.stderr.write('folio reset-password: --email is required\n');
      return EXIT.usage;
    }
    const email = values.email;
    return withConfig(loadConfig, async (config) => {
      const core = await createCore(config, { logger: createLogger(config.logLevel, process.stderr) });
      try {
        const link = await core.services.passwordReset.linkFor(email);
        if (!link) {
          process.stderr.write(`folio reset-password: no user with email ${email}\n`);
          return EXIT.failure;
        }
        process.stdout.write(`${link}\n`);
        return EXIT.ok;
      } finally {
        await core.close();
      }
    });
  },
};
