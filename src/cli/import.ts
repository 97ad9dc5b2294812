import { stat } from 'node:fs/promises';
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { type Actor, SYSTEM_ACTOR } from '../domain/actor.js';
import { loadConfig } from '../config.js';
import { createCore } from '../core.js';
import { AppError } from '../errors.js';
import { createLogger } from '../logger.js';
import { runningServerPid } from '../server-lock.js';
import { importOptions, readFolderExport, readZipExport } from '../services/imports/index.js';
import { findLiveUserByEmail } from '../store/repositories/users.js';
import * as workspacesTable from '../store/repositories/workspaces.js';
import { type Command, EXIT } from './command.js';
import { withConfig } from './config-errors.js';

const USAGE =
  'folio import <path-or-zip> --workspace SLUG [--from notion|confluence|gitbook|obsidian|mkdocs|docusaurus] ' +
  '[--into FOLDER] [--publish] [--as EMAIL] [--json]';

/**
 * `folio import`: turns an export (a ZIP, or a folder it was unpacked into) into pages of
 * a workspace as one commit, authored by `--as` (a member who may edit; Folio without
 * it), and prints the report. Refused while a server runs on the same DATA_DIR, like
 * `rebuild`: use Workspace settings → Import or the HTTP API then.
 */
export const importCommand: Command = {
  name: 'import',
  summary: 'Import a Notion or Confluence export (or a folder of docs pages) into a workspace',
  usage: USAGE,
  async run(args) {
    let parsed;
    try {
      parsed = parseArgs({
        args,
        allowPositionals: true,
        options: {
          workspace: { type: 'string' },
          from: { type: 'string' },
          into: { type: 'string' },
          publish: { type: 'boolean' },
          as: { type: 'string' },
          json: { type: 'boolean' },
        },
        strict: true,
      });
      if (parsed.positionals.length !== 1 || !parsed.values.workspace)
        throw new Error('give one path and --workspace');
    } catch (error) {
      process.stderr.write(`folio import: ${(error as Error).message}\nUsage: ${USAGE}\n`);
      return EXIT.usage;
    }
    const { values, positionals } = parsed;
    const options = importOptions.safeParse({
      ...(values.from ? { from: values.from } : {}),
      ...(values.into ? { into: values.into } : {}),
      ...(values.publish ? { publish: true } : {}),
    });
    if (!options.success) {
      process.stderr.write(`folio import: ${options.error.issues.map((i) => i.message).join('; ')}\n`);
      return EXIT.usage;
    }
    return withConfig(loadConfig, async (config) => {
      const server = await runningServerPid(config.dataDir);
      if (server !== null) {
        process.stderr.write(
          `folio import: a Folio server (pid ${server}) is running on ${config.dataDir}; ` +
            'import through Workspace settings → Import or POST /api/v1/workspaces/:id/imports instead\n',
        );
        return EXIT.failure;
      }
      const core = await createCore(config, { logger: createLogger(config.logLevel, process.stderr) });
      try {
        const source = positionals[0]!;
        const info = await stat(source).catch(() => null);
        if (!info) throw new AppError('NOT_FOUND', `No file or folder at ${source}`);
        const files = info.isDirectory()
          ? await readFolderExport(source)
          : await readZipExport(await readFile(source));
        const ws = await workspacesTable.findLiveBySlug(core.store.db, values.workspace!);
        if (!ws) throw new AppError('NOT_FOUND', `No workspace ${values.workspace}`);
        let actor: Actor = SYSTEM_ACTOR;
        if (values.as) {
          const user = await findLiveUserByEmail(core.store.db, values.as.trim().toLowerCase());
          if (!user) throw new AppError('NOT_FOUND', `No user with the email ${values.as}`);
          // The user's own rights in the workspace, as a signed-in session of theirs has.
          actor = {
            userId: user.id,
            orgId: ws.org_id,
            scopes: null,
            via: 'jwt',
            isPlatformOwner: user.is_platform_owner === 1,
            displayName: user.name,
            email: user.email,
          };
        }
        let last = -1;
        const report = await core.services.importer.run(actor, ws.id, files, options.data, (done, total) => {
          const pct = Math.floor((done / total) * 10);
          if (!values.json && pct !== last) process.stderr.write(`  ${done}/${total}\n`);
          last = pct;
        });
        if (values.json) process.stdout.write(`${JSON.stringify(report)}\n`);
        else {
          const out = (line: string) => process.stdout.write(`${line}\n`);
          out(
            `Imported a ${report.from} export into ${ws.slug}${report.commit ? ` (commit ${report.commit.slice(0, 12)})` : ''}`,
          );
          out(`Converted (${report.converted.length}):`);
          for (const c of report.converted) out(`  ${c.source} -> ${c.path}`);
          out(`Kept as is (${report.kept.length}):`);
          for (const k of report.kept) out(`  ${k.source}: ${k.note}`);
          out(`Dropped (${report.dropped.length}):`);
          for (const d of report.dropped) out(`  ${d.source}: ${d.reason}`);
        }
        return EXIT.ok;
      } catch (error) {
        process.stderr.write(`folio import: ${(error as Error).message}\n`);
        return EXIT.failure;
      } finally {
        await core.close();
      }
    });
  },
};
