import type { FastifyInstance } from 'fastify';
import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { OPENAPI_PATH } from './openapi.js';

/** Where the reference page is served; its files are under `${DOCS_PATH}/static/`. */
export const DOCS_PATH = '/api/docs';

/** swagger-ui's files the page loads, with their types; nothing else is served from the package. */
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/** Starts swagger-ui on the document: a file of its own, as the CSP allows no inline script. */
const INITIALIZER = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '${OPENAPI_PATH}',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
  });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Folio API reference</title>
    <link rel="stylesheet" href="${DOCS_PATH}/static/swagger-ui.css">
    <link rel="icon" type="image/png" href="${DOCS_PATH}/static/favicon-32x32.png">
  </head>
  <body>
    <main id="swagger-ui"></main>
    <script src="${DOCS_PATH}/static/swagger-ui-bundle.js"></script>
    <script src="${DOCS_PATH}/static/folio-docs.js"></script>
  </body>
</html>
`;

/** swagger-ui-dist's directory, found through Node's resolution so the bundled server finds it too. */
function assetsDirectory(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve('swagger-ui-dist/package.json'));
}

/**
 * The reference page at `/api/docs`, public: swagger-ui from node_modules (no CDN, no web
 * font, validator badge off) reading `/api/openapi.json`. It loads only its own scripts and
 * styles, so the web app's Content-Security-Policy covers it unchanged. Serving three files
 * by name, rather than through a static-files plugin, keeps the start-up code small.
 */
export function apiDocsRoutes() {
  return async (app: FastifyInstance) => {
    // The page is not part of the API it describes, so the document leaves it out.
    const options = { config: { auth: 'none', surface: 'app' }, schema: { hide: true } } as const;
    // Found on the first request for a file, not at start.
    let directory: string | undefined;
    const cache = 'public, max-age=86400';

    app.get(DOCS_PATH, options, async (_request, reply) =>
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(PAGE),
    );
    app.get(`${DOCS_PATH}/static/folio-docs.js`, options, async (_request, reply) =>
      reply.type('text/javascript; charset=utf-8').header('cache-control', cache).send(INITIALIZER),
    );
    app.get<{ Params: { file: string } }>(`${DOCS_PATH}/static/:file`, options, async (request, reply) => {
      const type = Object.hasOwn(ASSETS, request.params.file) ? ASSETS[request.params.file] : undefined;
      if (!type) return reply.callNotFound();
      return reply
        .type(type)
        .header('cache-control', cache)
        .send(createReadStream(path.join((directory ??= assetsDirectory()), request.params.file)));
    });
  };
}
