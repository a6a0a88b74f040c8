import express, { type Express } from 'express';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const assets = path.dirname(require.resolve('swagger-ui-dist/package.json'));

const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>School platform API reference</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>`;

const init = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true, tryItOutEnabled: true });`;

/** The reference page at /docs, served from the installed swagger-ui-dist (no CDN), reading /openapi.json. */
export function mountDocs(app: Express, document: () => unknown): void {
  let cached: string | undefined;
  app.get('/openapi.json', (_req, res) => {
    cached ??= JSON.stringify(document());
    res.type('application/json').send(cached);
  });
  app.use('/docs/assets', express.static(assets, { index: false, maxAge: '1d' }));
  app.get('/docs/init.js', (_req, res) => {
    res.type('application/javascript').send(init);
  });
  app.get(['/docs', '/docs/'], (_req, res) => {
    res.type('html').send(page);
  });
}
