/** Ceiling (a): the parent feed and noticeboard on bare node:http with mysql2 prepared statements. */
import http from 'node:http';
import { ceilingEnv, createReads } from './ceiling-reads.js';

const env = ceilingEnv();
const reads = createReads(env.databaseUrl, env.jwtSecret);
const routes = new Map([['/parent-app/activities', reads.feed], ['/parent-app/noticeboard', reads.board]]);

const server = http.createServer((req, res) => {
  const read = req.method === 'GET' ? routes.get(req.url?.split('?')[0] ?? '') : undefined;
  if (!read) {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"success":false}');
    return;
  }
  read(req.headers.authorization).then(
    ({ status, body }) => res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) }).end(body),
    () => res.writeHead(500, { 'content-type': 'application/json' }).end('{"success":false}'),
  );
});
server.keepAliveTimeout = 65_000;
server.listen(env.port, '127.0.0.1', () => console.log(`listening ${(server.address() as { port: number }).port}`));
process.on('SIGTERM', () => server.close(() => reads.close().finally(() => process.exit(0))));
