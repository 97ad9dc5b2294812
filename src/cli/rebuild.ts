import { parseArgs } from 'node:util';
import { SYSTEM_ACTOR } from '../domain/actor.js';
import { loadConfig } from '../config.js';
import { createCore } from '../core.js';
import { createLogger } from '../logger.js';
import { runningServerPid } from '../server-lock.js';
import { type Command, EXIT } from './command.js';
import { withConfig } from './config-errors.js';

/**
 * `folio rebuild [--workspace SLUG]`: recreates the page index and the search
 * index from the files alone, keeping every page_id, and restores from
 * `DATA_DIR/meta/<id>/workspace.json` workspaces the database lost. Progress and counts
 * go to stdout, logs to stderr; exit 1 when any workspace failed. Refused while a
 * server runs on the same DATA_DIR (its lock file in DATA_DIR/run): page writes are
 * serialised per process only.
 */
export const rebuildCommand: Command = {
  name: 'rebuild',
  summary: 'Recreate the page and search indexes from the workspace files',
  usage: 'folio rebuild [--workspace SLUG]',
  async run(args) {
    let slug: string | undefined;
    try {
      const { values } = parseArgs({ args, options: { workspace: { type: 'string' } }, strict: true });
      slug = values.workspace;
    } catch (error) {
      process.stderr.write(`folio rebuild: ${(error as Error).message}\nUsage: ${rebuildCommand.usage}\n`);
      return EXIT.usage;
    }
    return withConfig(loadConfig, async (config) => {
      const server = await runningServerPid(config.dataDir);
      if (server !== null) {
        process.stderr.write(
          `folio rebuild: a Folio server (pid ${server}) is running on ${config.dataDir}; stop it first\n`,
        );
        return EXIT.failure;
      }
      const core = await createCore(config, { logger: createLogger(config.logLevel, process.stderr) });
      const out = (line: string) => process.stdout.write(`${line}\n`);
      try {
        out(
          `Rebuilding ${slug ? `workspace ${slug}` : 'every workspace'} from the files in ${config.dataDir}`,
        );
        const result = await core.runtime.rebuild(SYSTEM_ACTOR, {
          ...(slug ? { slug } : {}),
          progress: out,
        });
        const pages = result.rebuilt.reduce((n, s) => n + s.pages, 0);
        const ids = result.rebuilt.reduce((n, s) => n + s.ids_written, 0);
        out(
          `Done: ${result.rebuilt.length} workspaces, ${pages} pages, ${ids} ids written, ` +
            `${result.restored.length} workspaces restored, ${result.failed.length} failed`,
        );
        return result.failed.length > 0 ? EXIT.failure : EXIT.ok;
      } catch (error) {
        process.stderr.write(`folio rebuild: ${(error as Error).message}\n`);
        return EXIT.failure;
      } finally {
        await core.close();
      }
    });
  },
};
