import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { createCore } from '../core.js';
import { buildHttpApp } from '../http/app.js';
import { healthRoutes } from '../http/routes/health.js';
import { mcpRoutes } from '../http/routes/mcp.js';
import { VERSION } from '../version.js';
import { type Command, EXIT } from './command.js';
import { withConfig } from './config-errors.js';

/** Splits `HOST:PORT` (or `[::1]:PORT`). */
function parseAddr(addr: string): { host: string; port: number } | null {
  const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(addr);
  if (!match) return null;
  const port = Number(match[2]);
  return port <= 65535 ? { host: match[1]!.replace(/^\[|\]$/g, ''), port } : null;
}

/**
 * `folio mcp-server --addr HOST:PORT`: only streamable HTTP MCP at `/mcp`
 * (many workspaces, the API key as Bearer) plus health, on DATA_DIR.
 */
export const mcpServerCommand: Command = {
  name: 'mcp-server',
  summary: 'Serve MCP over streamable HTTP at /mcp (many workspaces)',
  usage: 'folio mcp-server --addr HOST:PORT',
  async run(args) {
    const { values } = parseArgs({ args, options: { addr: { type: 'string' } }, strict: true });
    const addr = parseAddr(values.addr ?? '127.0.0.1:3001');
    if (!addr) {
      process.stderr.write(`folio mcp-server: --addr must be HOST:PORT\n`);
      return EXIT.usage;
    }
    return withConfig(loadConfig, async (config) => {
      const core = await createCore(config);
      const app = await buildHttpApp({
        logger: core.logger,
        trustProxy: config.trustProxy,
        publicOrigin: new URL(config.publicUrl).origin,
        limiter: core.limiter,
        buckets: core.buckets,
        authenticate: core.services.authenticate,
        routes: [
          healthRoutes(core.services.health, VERSION),
          // No sync engine runs in this process (it serves tools only), like stdio without a server URL.
          mcpRoutes(core.services, { offerSync: false, corsOrigins: config.mcpCorsOrigins }),
        ],
      });
      const address = await app.listen(addr);
      core.logger.info({ address: `${address}/mcp` }, 'Folio MCP server is listening');
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once('SIGTERM', stop);
        process.once('SIGINT', stop);
      });
      await app.close();
      await core.close();
      return EXIT.ok;
    });
  },
};
