/**
 * The ceiling of `/files`: `express.static` serving the folder that holds a copy of the file the
 * service serves (its defaults: ETag, Last-Modified, ranges), x-powered-by off as in the service.
 */
import express from 'express';

const port = Number(process.env.PORT);
const dir = process.env.STATIC_DIR;
if (!dir) throw new Error('STATIC_DIR names the folder to serve');

const app = express();
app.disable('x-powered-by');
app.use(express.static(dir));

const server = app.listen(port, '127.0.0.1', () => console.log(`listening ${(server.address() as { port: number }).port}`));
server.keepAliveTimeout = 65_000;
process.on('SIGTERM', () => server.close(() => process.exit(0)));
