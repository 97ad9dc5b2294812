import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services/index.js';
import { gitWebhookReceipt } from '../../contract/webhooks.js';
import { ownScope } from '../route-scopes.js';

type ById = { Params: { id: string } };

/**
 * The API's inbound git webhook, `POST /api/git/webhook/:workspace_id`: no
 * bearer token, the workspace's secret instead. The signature is an HMAC of the
 * exact bytes sent, so this plugin (and only it: the scope is encapsulated)
 * keeps every body raw rather than parsing JSON. Answers 202 at once; the sync
 * runs in the background.
 */
export function gitWebhookRoutes(services: Services) {
  return ownScope((scope: FastifyInstance) => {
    // Typed by the response schemas: a service answer that drifts from its record does not compile.
    const app = scope.withTypeProvider<ZodTypeProvider>();
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

    app.post<ById>(
      '/api/git/webhook/:id',
      { config: { rateLimit: 'gitWebhook', auth: 'none' }, schema: { response: { 202: gitWebhookReceipt } } },
      async (request, reply) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const result = await services.gitSync.receiveWebhook(request.params.id, request.headers, raw);
        return reply.code(202).send(result);
      },
    );
  });
}
