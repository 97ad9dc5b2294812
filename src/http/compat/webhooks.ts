import type { FastifyInstance } from 'fastify';
import { notFound } from '../../errors.js';
import type { Services } from '../../services/index.js';
import { deprecatedRoute } from './layout.js';
import { ownScope } from '../route-scopes.js';

type ByHost = { Params: { host: string } };
const HOSTS = new Set(['github', 'gitlab', 'gitea']);
const CONFIG = { rateLimit: 'gitWebhook', auth: 'none' } as const;
/** The current webhook is per workspace (`/api/git/webhook/<workspace id>`, its own secret). */
const SUCCESSOR = '/api/git/webhook/';

/**
 * Layout C's `POST /api/v1/webhooks/<github|gitlab|gitea>` and Layout B's auto-detected
 * `POST /api/git/webhook`, both validated with GIT_WEBHOOK_SECRET. Bodies stay raw in this
 * scope (the signature covers the exact bytes). 202 at once; syncs run in the background.
 */
export function webhookCompatRoutes(services: Services) {
  const { gitSync } = services;
  return ownScope((app: FastifyInstance) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    const raw = (body: unknown) => (Buffer.isBuffer(body) ? body : Buffer.alloc(0));

    const c = deprecatedRoute(
      SUCCESSOR,
      'Layout C: git push webhook of one host, signed with GIT_WEBHOOK_SECRET',
    );
    app.post<ByHost>('/api/v1/webhooks/:host', { ...c, config: CONFIG }, async (request, reply) => {
      if (!HOSTS.has(request.params.host)) throw notFound('Webhook host');
      return reply.code(202).send(await gitSync.receiveSharedWebhook(request.headers, raw(request.body)));
    });

    const b = deprecatedRoute(
      SUCCESSOR,
      'Layout B: git push webhook, host auto-detected, signed with GIT_WEBHOOK_SECRET',
    );
    app.post('/api/git/webhook', { ...b, config: CONFIG }, async (request, reply) =>
      reply.code(202).send(await gitSync.receiveSharedWebhook(request.headers, raw(request.body))),
    );
  });
}
