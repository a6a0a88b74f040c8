/**
 * Ceiling (b): the same work in one Express 5 handler a read, no middleware. The two settings the
 * service also turns off (ETag hashing, x-powered-by) are off here, so the ceiling is what Express itself allows.
 */
import express from 'express';
import { ceilingEnv, createReads, type Answer } from './ceiling-reads.js';

const env = ceilingEnv();
const reads = createReads(env.databaseUrl, env.jwtSecret);

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
const send = (res: express.Response, { status, body }: Answer) => res.status(status).type('application/json').send(body);
app.get('/parent-app/activities', async (req, res) => send(res, await reads.feed(req.headers.authorization)));
app.get('/parent-app/noticeboard', async (req, res) => send(res, await reads.board(req.headers.authorization)));

const server = app.listen(env.port, '127.0.0.1', () => console.log(`listening ${(server.address() as { port: number }).port}`));
server.keepAliveTimeout = 65_000;
process.on('SIGTERM', () => server.close(() => reads.close().finally(() => process.exit(0))));
