import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { createJsonSchemaTransform } from 'fastify-type-provider-zod';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

/** Where the reference page is served; its assets are under `${DOCS_PREFIX}/static/`. */
export const DOCS_PREFIX = '/api/docs';

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

/**
 * The swagger-ui assets' directory, found through Node's resolution so that the bundled
 * server (dist/, scripts/build.mjs) serves the same files as the sources do.
 */
function swaggerUiAssets(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('@fastify/swagger-ui')), 'static');
}

/**
 * `GET /api/openapi.json` and the reference page at `/api/docs`, both public. The page is
 * swagger-ui from node_modules (no CDN, no web font, validator badge off); it loads only
 * its own scripts and styles, so the web app's Content-Security-Policy covers it unchanged.
 */
export function apiReferenceRoutes() {
  return async (app: FastifyInstance) => {
    app.get(
      '/api/openapi.json',
      {
        config: { auth: 'none' },
        schema: { summary: 'This document: the OpenAPI 3.1 description of the API', security: [] },
      },
      async () => app.swagger(),
    );

    const assets = swaggerUiAssets();
    // Given here: left out, swagger-ui reads it beside its own module, which the bundle moved.
    const logo = { type: 'image/svg+xml', content: await readFile(path.join(assets, 'logo.svg')) };
    await app.register(async (docs) => {
      // Every route of the page (HTML, scripts, styles) is public and gets an HTML surface's CSP.
      docs.addHook('onRoute', (route) => {
        route.config = { ...route.config, auth: 'none', surface: 'app' };
      });
      await docs.register(swaggerUi, {
        routePrefix: DOCS_PREFIX,
        baseDir: assets,
        logo,
        theme: { title: 'Folio API reference' },
      });
    });
  };
}
