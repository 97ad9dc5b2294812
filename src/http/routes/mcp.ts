import type * as McpStreamableHttp from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, unauthorized } from '../../errors.js';
import type { McpEnvironment } from '../../mcp/server.js';
import type { Services } from '../../services/index.js';
import { z } from 'zod';
import { otherContent } from '../../contract/answers.js';
import { importPackage } from '../../lib/import-package.js';

export interface McpRouteOptions extends McpEnvironment {
  /** Whether a sync engine runs behind this server (offers svc_resolve_sync_conflict). */
  offerSync: boolean;
  /** Browser origins allowed to call /mcp. */
  corsOrigins: readonly string[];
}

/** Applies the CORS policy: no Origin (a non-browser client) passes; a browser origin must be listed. */
function checkOrigin(request: FastifyRequest, reply: FastifyReply, allowed: readonly string[]): void {
  const origin = request.headers.origin;
  if (!origin) return;
  if (!allowed.includes(origin) && !allowed.includes('*')) {
    throw new AppError('FORBIDDEN', `Origin ${origin} may not call /mcp`);
  }
  reply.header('Access-Control-Allow-Origin', origin);
  reply.header('Vary', 'Origin');
}

/** Answers a POST to `/mcp` once its origin has been checked. */
export type McpPostHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/**
 * The `/mcp` endpoint around whatever answers its POSTs: the CORS policy, the
 * preflight, and 405 for GET and DELETE (stateless: no server-initiated stream
 * and no session to end).
 */
export function mcpEndpoint(corsOrigins: readonly string[], handlePost: McpPostHandler) {
  return (app: FastifyInstance) => {
    app.options('/mcp', async (request, reply) => {
      checkOrigin(request, reply, corsOrigins);
      reply.header('Access-Control-Allow-Methods', 'POST, OPTIONS');
      reply.header('Access-Control-Allow-Headers', 'authorization, content-type, mcp-protocol-version');
      return reply.code(204).send();
    });

    const rpc = {
      response: {
        200: otherContent(
          'application/json',
          'A JSON-RPC answer of the Model Context Protocol (streamable HTTP)',
        ),
        202: z.null().describe('A notification or response was accepted'),
      },
    };
    app.post('/mcp', { schema: rpc }, async (request, reply) => {
      checkOrigin(request, reply, corsOrigins);
      return handlePost(request, reply);
    });

    const notAllowed = async (request: FastifyRequest, reply: FastifyReply) =>
      reply
        .code(405)
        .header('Allow', 'POST, OPTIONS')
        .send({
          jsonrpc: '2.0',
          error: { code: -32000, message: 'Method not allowed' },
          id: null,
          request_id: request.id,
        });
    app.get('/mcp', notAllowed);
    app.delete('/mcp', notAllowed);
  };
}

/**
 * Streamable HTTP MCP at `/mcp`, stateless: each POST carries
 * its API key and is answered by a server built for that key's actor.
 */
export function mcpRoutes(services: Services, options: McpRouteOptions) {
  return mcpEndpoint(options.corsOrigins, async (request, reply) => {
    const actor = request.actor;
    if (!actor || actor.via !== 'api_key')
      throw unauthorized('MCP needs an API key: Authorization: Bearer svc_live_…');
    // The MCP SDK is loaded on the first MCP request, not at start: most instances never serve one.
    const [{ buildMcpServer }, { StreamableHTTPServerTransport }] = await Promise.all([
      import('../../mcp/server.js'),
      importPackage<typeof McpStreamableHttp>('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    ]);
    const { corsOrigins: _cors, ...environment } = options;
    const server = buildMcpServer({ services, actor, ...environment });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    // The transport writes the raw response itself; carry over the headers set so far.
    for (const [name, value] of Object.entries(reply.getHeaders()))
      if (value !== undefined) reply.raw.setHeader(name, value);
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });
}
