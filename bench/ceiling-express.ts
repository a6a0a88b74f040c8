/**
 * Ceiling (b): the same work in one Express 5 handler, no middleware. The two settings the service
 * also turns off (ETag hashing, x-powered-by) are off here, so the ceiling is what Express itself allows.
 */
import express from 'express';
import { ceilingEnv, createFeed } from './ceiling-feed.js';

const env = ceilingEnv();
const feed = createFeed(env.databaseUrl, env.jwtSecret);

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.get('/parent-app/activities', async (req, res) => {
  const { status, body } = await feed.answer(req.headers.authorization);
  res.status(status).type('application/json').send(body);
});

const server = app.listen(env.port, '127.0.0.1', () => console.log(`listening ${(server.address() as { port: number }).port}`));
server.keepAliveTimeout = 65_000;
process.on('SIGTERM', () => server.close(() => feed.close().finally(() => process.exit(0))));
