import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { createBackups } from '../services/operations/index.js';
import { systemClock } from '../lib/clock.js';
import { openStore } from '../store/database.js';
import { type Command, EXIT } from './command.js';
import { withConfig } from './config-errors.js';

/**
 * `folio backup`: one consistent backup into DATA_DIR/backups/<timestamp>/, then pruning
 * per BACKUP_RETENTION_DAYS. Safe while the server runs (SQLite's backup is online). It
 * opens the database without migrating it, so a backup taken before an upgrade holds the
 * schema the old version wrote. Prints the backup's path on stdout; logs go to stderr.
 */
export const backupCommand: Command = {
  name: 'backup',
  summary: 'Back up the database and every workspace into DATA_DIR/backups',
  usage: 'folio backup',
  async run(args) {
    try {
      parseArgs({ args, options: {}, strict: true, allowPositionals: false });
    } catch (err) {
      process.stderr.write(`folio backup: ${(err as Error).message}\n`);
      return EXIT.usage;
    }
    return withConfig(loadConfig, async (config) => {
      const sqlitePath = path.join(config.dataDir, 'folio.db');
      if (!config.databaseUrl && !fs.existsSync(sqlitePath)) {
        process.stderr.write(`folio backup: no database at ${sqlitePath}; is DATA_DIR right?\n`);
        return EXIT.failure;
      }
      const logger = createLogger(config.logLevel, process.stderr);
      const store = await openStore({ databaseUrl: config.databaseUrl, sqlitePath });
      try {
        const backups = createBackups({
          dataDir: config.dataDir,
          store,
          clock: systemClock,
          logger,
          retentionDays: config.backups.retentionDays,
          intervalHours: config.backups.intervalHours,
        });
        const result = await backups.run();
        process.stdout.write(`${result.path}\n`);
        const database = result.database ?? 'no database (pg_dump not found; see the note inside)';
        process.stderr.write(
          `folio backup: ${database}, ${result.workspaces} workspace(s); pruned ${result.pruned.length} old backup(s)\n`,
        );
        return EXIT.ok;
      } catch (err) {
        process.stderr.write(`folio backup: failed: ${(err as Error).message}\n`);
        return EXIT.failure;
      } finally {
        await store.close();
      }
    });
  },
};
