import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Services } from '../../services/index.js';
import {
  createWebhookInput,
  deliveryParams,
  updateWebhookInput,
  webhookParams,
} from '../../services/webhooks/index.js';
import { requireActor, requireSignedIn } from '../auth-context.js';
import { workspaceParams } from '../route-params.js';

/** Outbound webhooks: definitions, their delivery log, and redelivery. */
export function webhookRoutes(services: Services) {
  const { webhooks } = services;
  return (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const base = '/api/v1/workspaces/:id/webhooks';
    const signedIn = { preValidation: requireSignedIn };

    app.get(base, { schema: { params: workspaceParams } }, async (request) =>
      webhooks.list(requireActor(request), request.params.id),
    );

    app.post(
      base,
      { ...signedIn, schema: { params: workspaceParams, body: createWebhookInput } },
      async (request, reply) =>
        reply.code(201).send(await webhooks.create(requireActor(request), request.params.id, request.body)),
    );

    app.get(`${base}/:wid`, { schema: { params: webhookParams } }, async (request) =>
      webhooks.get(requireActor(request), request.params.id, request.params.wid),
    );

    app.put(
      `${base}/:wid`,
      { ...signedIn, schema: { params: webhookParams, body: updateWebhookInput } },
      async (request) =>
        webhooks.update(requireActor(request), request.params.id, request.params.wid, request.body),
    );

    app.delete(`${base}/:wid`, { schema: { params: webhookParams } }, async (request, reply) => {
      await webhooks.remove(requireActor(request), request.params.id, request.params.wid);
      return reply.code(204).send();
    });

    app.get(`${base}/:wid/deliveries`, { schema: { params: webhookParams } }, async (request) =>
      webhooks.deliveries(requireActor(request), request.params.id, request.params.wid),
    );

    app.post(
      `${base}/:wid/deliveries/:delivery_id/redeliver`,
      { schema: { params: deliveryParams } },
      async (request, reply) => {
        const { id, wid, delivery_id } = request.params;
        return reply.code(202).send(await webhooks.redeliver(requireActor(request), id, wid, delivery_id));
      },
    );
  };
}
