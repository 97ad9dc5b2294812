import type * as McpStdio from '@modelcontextprotocol/sdk/server/stdio.js';
import { parseArgs } from 'node:util';
import { type Config, loadConfig } from '../config.js';
import { createCore } from '../core.js';
import { AppError } from '../errors.js';
import { runningServerPid } from '../server-lock.js';
import { createLogger } from '../logger.js';
import { type Command, EXIT } from './command.js';
import { withConfig } from './config-errors.js';
import { importPackage } from '../lib/import-package.js';

/** Resolves when stdin closes: the MCP client has gone. */
const untilStdinCloses = () => new Promise<void>((resolve) => process.stdin.once('close', resolve));

/** Relays stdio to the server's /mcp until the client goes; the key and workspace are checked first. */
async function serveBridged(options: { serverUrl: string; apiKey: string; workspace: string }) {
  // The MCP SDK loads only when this command runs: every other command, `serve` first, skips it.
  const { bridgeStdioToServer } = await import('../mcp/bridge.js');
  const server = await bridgeStdioToServer(options);
  await untilStdinCloses();
  await server.close();
  return EXIT.ok;
}

/** Runs the services on DATA_DIR and serves their tools on stdio until the client goes. */
async function serveInProcess(config: Config, options: { apiKey: string; workspace: string }) {
  const [{ StdioServerTransport }, { buildMcpServer }, { invalidApiKey, unknownWorkspace }] =
    await Promise.all([
      importPackage<typeof McpStdio>('@modelcontextprotocol/sdk/server/stdio.js'),
      import('../mcp/server.js'),
      import('../mcp/start-up-errors.js'),
    ]);
  const core = await createCore(config, { logger: createLogger(config.logLevel, process.stderr) });
  try {
    const actor = await core.services.apiKeys.resolve(options.apiKey);
    if (!actor) throw invalidApiKey();
    await core.services.workspaces.get(actor, options.workspace).catch((error: unknown) => {
      throw error instanceof AppError && error.code === 'NOT_FOUND'
        ? unknownWorkspace(options.workspace)
        : error;
    });
    const server = buildMcpServer({
      services: core.services,
      actor,
      fixedWorkspace: options.workspace,
      offerSync: false,
      ...{ quota: core.orgQuota, logger: core.logger, publicUrl: config.publicUrl },
    });
    await server.connect(new StdioServerTransport());
    await untilStdinCloses();
    await server.close();
    return EXIT.ok;
  } finally {
    await core.close();
  }
}

/**
 * `folio mcp --workspace SLUG --api-key KEY [--server-url URL]`: MCP over
 * stdio for one workspace. Nothing but protocol goes to stdout; logs go to
 * stderr. With a server URL it bridges to that server's /mcp (26 tools);
 * without one it runs the services in-process on DATA_DIR (25 tools: no
 * sync engine runs here, so no svc_resolve_sync_conflict).
 */
export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'Serve MCP over stdio for one workspace (for Claude Desktop, Cursor, …)',
  usage: 'folio mcp --workspace SLUG --api-key KEY [--server-url URL]',
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        workspace: { type: 'string' },
        'api-key': { type: 'string' },
        'server-url': { type: 'string' },
      },
      strict: true,
    });
    const workspace = values.workspace;
    const apiKey = values['api-key'] ?? process.env.FOLIO_API_KEY;
    if (!workspace || !apiKey) {
      process.stderr.write(`folio mcp: --workspace and --api-key are required\nUsage: ${this.usage}\n`);
      return EXIT.usage;
    }
    return withConfig(loadConfig, async (config) => {
      const serverUrl = values['server-url'] ?? config.serverUrl;
      if (!serverUrl) {
        // In-process MCP writes DATA_DIR itself: not beside a server that does too.
        const server = await runningServerPid(config.dataDir);
        if (server !== null) {
          process.stderr.write(
            `folio mcp: a Folio server (pid ${server}) is running on ${config.dataDir}; ` +
              'pass --server-url to use it, or stop it first\n',
          );
          return EXIT.failure;
        }
      }
      try {
        return await (serverUrl
          ? serveBridged({ serverUrl, apiKey, workspace })
          : serveInProcess(config, { apiKey, workspace }));
      } catch (error) {
        // A sentence, never a stack: stderr is what an MCP client shows its user.
        process.stderr.write(`folio mcp: ${(error as Error).message}\n`);
        return EXIT.failure;
      }
    });
  },
};
