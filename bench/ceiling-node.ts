/** Ceiling (a): the parent feed on bare node:http with mysql2 prepared statements. */
import http from 'node:http';
import { ceilingEnv, createFeed } from './ceiling-feed.js';

const env = ceilingEnv();
const feed = createFeed(env.databaseUrl, env.jwtSecret);

const server = http.createServer((req, res) => {
  if (req.method !== 'GET' || !req.url?.startsWith('/parent-app/activities')) {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"success":false}');
    return;
  }
  feed.answer(req.headers.authorization).then(
    ({ status, body }) => res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) }).end(body),
    () => res.writeHead(500, { 'content-type': 'application/json' }).end('{"success":false}'),
  );
});
server.keepAliveTimeout = 65_000;
server.listen(env.port, '127.0.0.1', () => console.log(`listening ${(server.address() as { port: number }).port}`));
process.on('SIGTERM', () => server.close(() => feed.close().finally(() => process.exit(0))));
