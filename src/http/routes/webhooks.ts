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
import { noContent } from '../../contract/answers.js';
import { deliveryList, deliveryRecord, webhookList, webhookRecord } from '../../contract/webhooks.js';

/** Outbound webhooks: definitions, their delivery log, and redelivery. */
export function webhookRoutes(services: Services) {
  const { webhooks } = services;
  return (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const base = '/api/v1/workspaces/:id/webhooks';
    const signedIn = { preValidation: requireSignedIn };

    app.get(base, { schema: { params: workspaceParams, response: { 200: webhookList } } }, async (request) =>
      webhooks.list(requireActor(request), request.params.id),
    );

    app.post(
      base,
      {
        ...signedIn,
        schema: { params: workspaceParams, body: createWebhookInput, response: { 201: webhookRecord } },
      },
      async (request, reply) =>
        reply.code(201).send(await webhooks.create(requireActor(request), request.params.id, request.body)),
    );

    app.get(
      `${base}/:wid`,
      { schema: { params: webhookParams, response: { 200: webhookRecord } } },
      async (request) => webhooks.get(requireActor(request), request.params.id, request.params.wid),
    );

    app.put(
      `${base}/:wid`,
      {
        ...signedIn,
        schema: { params: webhookParams, body: updateWebhookInput, response: { 200: webhookRecord } },
      },
      async (request) =>
        webhooks.update(requireActor(request), request.params.id, request.params.wid, request.body),
    );

    app.delete(
      `${base}/:wid`,
      { schema: { params: webhookParams, response: { 204: noContent } } },
      async (request, reply) => {
        await webhooks.remove(requireActor(request), request.params.id, request.params.wid);
        return reply.code(204).send();
      },
    );

    const deliveries = { params: webhookParams, response: { 200: deliveryList } };
    app.get(`${base}/:wid/deliveries`, { schema: deliveries }, async (request) =>
      webhooks.deliveries(requireActor(request), request.params.id, request.params.wid),
    );

    app.post(
      `${base}/:wid/deliveries/:delivery_id/redeliver`,
      { schema: { params: deliveryParams, response: { 202: deliveryRecord } } },
      async (request, reply) => {
        const { id, wid, delivery_id } = request.params;
        return reply.code(202).send(await webhooks.redeliver(requireActor(request), id, wid, delivery_id));
      },
    );
  };
}
