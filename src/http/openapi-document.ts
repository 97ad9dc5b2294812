/**
 * Builds the OpenAPI 3.1 document from the app's recorded routes. Loaded on the first
 * request for it (openapi.ts), so @fastify/swagger and the zod-to-JSON-Schema conversion
 * cost nothing at start: the routes are replayed into a Fastify instance of their own,
 * which only @fastify/swagger listens to, and dropped once the document is made.
 */
import swagger from '@fastify/swagger';
import Fastify, { type RouteOptions } from 'fastify';
import { createJsonSchemaTransform } from 'fastify-type-provider-zod';
import { layoutConstraint } from './compat/layout.js';

/** The document, serialised, for routes as `onRoute` saw them (their order is the document's). */
export async function buildOpenApiDocument(
  routes: readonly RouteOptions[],
  version: string,
): Promise<string> {
  const app = Fastify({ exposeHeadRoutes: false });
  // The replayed routes are never called: their schemas are only read, never compiled.
  app.setValidatorCompiler(() => () => true);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  // Older layouts' routes share a path with current ones, told apart by this constraint.
  app.addConstraintStrategy(layoutConstraint);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Folio API',
        version,
        description: 'The HTTP API of Folio. Errors carry `{ error, message, details?, request_id }`.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'An access token or an API key' },
        },
      },
      security: [{ bearer: [] }],
    },
    // Transforms and preprocessors document their input side; a refinement has no JSON Schema.
    transform: createJsonSchemaTransform({ skipList: [], zodToJsonConfig: { unrepresentable: 'any' } }),
  });
  for (const route of routes) {
    app.route({
      method: route.method,
      url: route.url,
      ...(route.schema ? { schema: route.schema } : {}),
      ...(route.config ? { config: route.config } : {}),
      ...(route.constraints ? { constraints: route.constraints } : {}),
      handler: async () => null,
    });
  }
  try {
    await app.ready();
    return JSON.stringify(app.swagger());
  } finally {
    await app.close();
  }
}
