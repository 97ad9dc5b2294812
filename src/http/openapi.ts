import type { FastifyInstance, RouteOptions } from 'fastify';
import { otherContent } from '../contract/answers.js';

/** Where the document is served. */
export const OPENAPI_PATH = '/api/openapi.json';

/**
 * Records every route registered after it, as the OpenAPI document will describe it
 * (`HEAD` routes are Fastify's own twins of the `GET`s and are left out). Registered
 * before any route, since it listens to `onRoute`. Nothing is converted here: the zod
 * schemas become JSON Schema only when the document is first asked for.
 */
export function collectDocumentedRoutes(app: FastifyInstance): readonly RouteOptions[] {
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    if (route.method !== 'HEAD') routes.push(route);
  });
  return routes;
}

/**
 * `GET /api/openapi.json`: the document, public. Built on the first request (the OpenAPI
 * tooling and the JSON Schema conversion are loaded then, not at start), then kept.
 */
export function openApiDocumentRoute(routes: readonly RouteOptions[], version: string) {
  let document: Promise<string> | null = null;
  const built = () => {
    document ??= import('./openapi-document.js')
      .then((m) => m.buildOpenApiDocument(routes, version))
      .catch((error: unknown) => {
        document = null; // the next request tries again
        throw error;
      });
    return document;
  };
  return async (app: FastifyInstance) => {
    app.get(
      OPENAPI_PATH,
      {
        config: { auth: 'none' },
        schema: {
          summary: 'This document: the OpenAPI 3.1 description of the API',
          security: [],
          response: { 200: otherContent('application/json', 'The OpenAPI 3.1 document') },
        },
      },
      async (_request, reply) => reply.type('application/json; charset=utf-8').send(await built()),
    );
  };
}
