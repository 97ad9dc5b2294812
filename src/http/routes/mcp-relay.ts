import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';
import { mcpEndpointOf } from '../../mcp/endpoint.js';
import { mcpEndpoint } from './mcp.js';
import { liveness } from '../../contract/health.js';

/** The request headers the server's `/mcp` reads; cookies and proxy headers stay here. */
const FORWARDED_HEADERS = ['authorization', 'content-type', 'accept', 'mcp-protocol-version'] as const;

const unreachable = (serverUrl: string, cause: unknown) =>
  new AppError('SERVICE_UNAVAILABLE', `The Folio server at ${serverUrl} cannot be reached`, { cause });

/**
 * `/mcp` relayed to the Folio server at `serverUrl`: each POST goes there with the
 * caller's own API key and its answer comes back unchanged, so that server
 * authenticates, checks permissions and offers all its tools (sync included).
 * `/api/health` answers for this process; `/api/ready` is the server's readiness.
 */
export function mcpRelayRoutes(
  serverUrl: string,
  options: { corsOrigins: readonly string[]; version: string },
) {
  const endpoint = mcpEndpointOf(serverUrl);
  const relay = mcpEndpoint(options.corsOrigins, async (request, reply) => {
    const headers: Record<string, string> = {};
    for (const name of FORWARDED_HEADERS) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const answer = await fetch(endpoint, {
      method: 'POST',
      headers,
      body: JSON.stringify(request.body),
    }).catch((error: unknown) => {
      throw unreachable(serverUrl, error);
    });
    const type = answer.headers.get('content-type');
    if (type) reply.header('content-type', type);
    return reply.code(answer.status).send(Buffer.from(await answer.arrayBuffer()));
  });
  return (app: FastifyInstance) => {
    relay(app);
    app.get('/api/health', { schema: { response: { 200: liveness } } }, async () => ({
      status: 'ok',
      version: options.version,
    }));
    app.get('/api/ready', async (_request, reply) => {
      const answer = await fetch(new URL('/api/ready', serverUrl)).catch((error: unknown) => {
        throw unreachable(serverUrl, error);
      });
      return reply
        .code(answer.status)
        .type('application/json')
        .send(await answer.text());
    });
  };
}
