import express, { type Express, type RequestHandler } from 'express';
import helmet from 'helmet';
import { createRequire } from 'node:module';
import path from 'node:path';
import { z } from 'zod';
import type { ServiceRoute } from '../openapi.js';

const require = createRequire(import.meta.url);
const assets = path.dirname(require.resolve('swagger-ui-dist/package.json'));

const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>School platform API reference</title>
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>`;

// validatorUrl null: the default badge would send the document's address to an outside validator.
const init = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null });`;

/**
 * The page's own Content-Security-Policy: helmet's defaults with what Swagger UI does spelled out:
 * its scripts and styles come from this server, it draws icons as data: images and sets inline
 * styles, and "Try it out" calls this same origin. The API keeps helmet's defaults untouched.
 */
const pagePolicy: RequestHandler = helmet.contentSecurityPolicy({
  directives: {
    'script-src': ["'self'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:'],
    'connect-src': ["'self'"],
  },
});

/** The reference page at /docs, served from the installed swagger-ui-dist (no CDN), reading /openapi.json. */
export function mountDocs(app: Express, document: () => unknown): void {
  let cached: string | undefined;
  app.get('/openapi.json', (_req, res) => {
    cached ??= JSON.stringify(document());
    res.type('application/json').send(cached);
  });
  app.use('/docs', pagePolicy);
  app.use('/docs/assets', express.static(assets, { index: false, maxAge: '1d' }));
  app.get('/docs/init.js', (_req, res) => {
    res.type('application/javascript').send(init);
  });
  app.get(['/docs', '/docs/'], (_req, res) => {
    res.type('html').send(page);
  });
}

/** /openapi.json, for the document itself. */
export const openApiDocumentRoute: ServiceRoute = {
  method: 'get', path: '/openapi.json',
  summary: 'This OpenAPI 3.1 document',
  description: 'The document behind the reference page at /docs, built from the schemas that validate each route. Generate a client from it (see clients/typescript).',
  responses: {
    200: {
      description: 'The OpenAPI document',
      schema: z.looseObject({ openapi: z.string(), info: z.looseObject({ title: z.string(), version: z.string() }), paths: z.record(z.string(), z.unknown()) }),
      example: { openapi: '3.1.0', info: { title: 'School platform API', version: '1.0.0' }, paths: {} },
    },
  },
};
