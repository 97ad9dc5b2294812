import type { FastifyInstance } from 'fastify';
import { parseArgs } from 'node:util';
import { type Config, loadConfig } from '../config.js';
import { createCore } from '../core.js';
import { buildHttpApp } from '../http/app.js';
import { healthRoutes } from '../http/routes/health.js';
import { mcpRelayRoutes } from '../http/routes/mcp-relay.js';
import { mcpRoutes } from '../http/routes/mcp.js';
import { createLogger, type Logger } from '../logger.js';
import { bucketTable } from '../ratelimit/buckets.js';
import { MemoryRateLimiter } from '../ratelimit/limiter.js';
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

interface McpApp {
  app: FastifyInstance;
  logger: Logger;
  close(): Promise<void>;
}

/**
 * Relays `/mcp` to the server at `serverUrl`, which authenticates and does the work: this
 * process opens no DATA_DIR and needs no database, and every tool the server offers
 * (svc_resolve_sync_conflict included, since its sync engine runs there) is offered.
 */
async function relayingApp(config: Config, serverUrl: string): Promise<McpApp> {
  const logger = createLogger(config.logLevel);
  const app = await buildHttpApp({
    logger,
    trustProxy: config.trustProxy,
    publicOrigin: new URL(config.publicUrl).origin,
    limiter: new MemoryRateLimiter(),
    buckets: bucketTable(),
    // The server checks each request's key itself; nobody is known here.
    authenticate: async () => null,
    routes: [mcpRelayRoutes(serverUrl, { corsOrigins: config.mcpCorsOrigins, version: VERSION })],
  });
  return { app, logger, close: () => app.close() };
}

/** Runs the services on DATA_DIR and serves their tools (no sync engine runs here: 25 tools). */
async function inProcessApp(config: Config): Promise<McpApp> {
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
      mcpRoutes(core.services, {
        offerSync: false,
        corsOrigins: config.mcpCorsOrigins,
        ...{ quota: core.orgQuota, logger: core.logger, publicUrl: config.publicUrl },
      }),
    ],
  });
  return {
    app,
    logger: core.logger,
    async close() {
      await app.close();
      await core.close();
    },
  };
}

/**
 * `folio mcp-server --addr HOST:PORT [--server-url URL]`: only streamable HTTP MCP at
 * `/mcp` (many workspaces, the API key as Bearer) plus health. With a server URL
 * (`--server-url` or FOLIO_SERVER_URL) it relays to that server, like `folio mcp`;
 * without one it runs the services on DATA_DIR.
 */
export const mcpServerCommand: Command = {
  name: 'mcp-server',
  summary: 'Serve MCP over streamable HTTP at /mcp (many workspaces)',
  usage: 'folio mcp-server --addr HOST:PORT [--server-url URL]',
  async run(args) {
    const { values } = parseArgs({
      args,
      options: { addr: { type: 'string' }, 'server-url': { type: 'string' } },
      strict: true,
    });
    const addr = parseAddr(values.addr ?? '127.0.0.1:3001');
    if (!addr) {
      process.stderr.write(`folio mcp-server: --addr must be HOST:PORT\n`);
      return EXIT.usage;
    }
    if (values['server-url'] !== undefined && !URL.canParse(values['server-url'])) {
      process.stderr.write(`folio mcp-server: --server-url must be a URL, e.g. http://localhost:3000\n`);
      return EXIT.usage;
    }
    return withConfig(loadConfig, async (config) => {
      const serverUrl = values['server-url'] ?? config.serverUrl;
      const { app, logger, close } = serverUrl
        ? await relayingApp(config, serverUrl)
        : await inProcessApp(config);
      const address = await app.listen(addr);
      logger.info(
        { address: `${address}/mcp`, ...(serverUrl ? { relaying_to: serverUrl } : {}) },
        'Folio MCP server is listening',
      );
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once('SIGTERM', stop);
        process.once('SIGINT', stop);
      });
      await close();
      return EXIT.ok;
    });
  },
};
