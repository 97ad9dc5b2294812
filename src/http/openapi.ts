import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { createJsonSchemaTransform } from 'fastify-type-provider-zod';

/** Where the document is served. */
export const OPENAPI_PATH = '/api/openapi.json';

/**
 * Collects every route registered after it into the OpenAPI 3.1 document, turning the
 * routes' zod schemas into JSON Schema. Registered before any route (it listens to `onRoute`).
 */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Folio API',
        version,
        description: "The HTTP API of Folio (SPEC.md part 4). Errors carry SPEC.md 7.1's body.",
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
}

/** `GET /api/openapi.json`: the document, public. */
export function openApiDocumentRoute() {
  return async (app: FastifyInstance) => {
    app.get(
      OPENAPI_PATH,
      {
        config: { auth: 'none' },
        schema: { summary: 'This document: the OpenAPI 3.1 description of the API', security: [] },
      },
      async () => app.swagger(),
    );
  };
}
