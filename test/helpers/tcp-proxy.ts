import { connect, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** The given database URL with its host and port replaced by the proxy's. */
  urlFor(databaseUrl: string): string;
  /**
   * The database "stops": every proxied connection is closed; new ones are reset at once ('refuse',
   * a stopped server) or accepted and never answered ('silent', a hung server or a dropped network).
   */
  down(mode?: 'refuse' | 'silent'): void;
  /** Like down(), at the moment a client sends its next query, so that query is cut off unanswered. */
  downMidQuery(): Promise<void>;
  /**
   * The database goes silent without closing anything (a hung server, a network partition): open
   * connections stay open but nothing passes either way, and new ones are accepted and never answered.
   */
  pause(): void;
  /** The database "is back": new connections are forwarded again, and paused ones flow again. */
  up(): void;
  close(): Promise<void>;
}

/**
 * A TCP forwarder between one server process and the shared database server, so a test can take
 * "the database" away from that process alone while other test files keep using the real one.
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: 'up' | 'refuse' | 'silent' = 'up';
  let paused = false;
  const held = new Set<Socket>();
  let onQuery: (() => void) | null = null;
  const pairs = new Set<[Socket, Socket]>();
  const server = createServer((client) => {
    if (mode === 'refuse') {
      client.resetAndDestroy();
      return;
    }
    if (mode === 'silent') {
      held.add(client);
      client.on('error', () => undefined).on('close', () => held.delete(client));
      return;
    }
    const upstream = connect(target);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
    // Registered after pipe(): the chunk is already on its way upstream when this runs.
    client.on('data', () => onQuery?.());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as { port: number };
  const down = (how: 'refuse' | 'silent' = 'refuse') => {
    mode = how;
    onQuery = null;
    for (const [client, upstream] of pairs) {
      client.destroy();
      upstream.destroy();
    }
    pairs.clear();
  };
  return {
    port,
    urlFor(databaseUrl) {
      const u = new URL(databaseUrl);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    down,
    downMidQuery() {
      return new Promise((resolve) => {
        onQuery = () => {
          down();
          resolve();
        };
      });
    },
    pause() {
      mode = 'silent';
      paused = true;
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    up() {
      mode = 'up';
      for (const socket of held) socket.destroy();
      if (paused) {
        for (const [client, upstream] of pairs) {
          client.pipe(upstream);
          upstream.pipe(client);
        }
        paused = false;
      }
    },
    close() {
      down();
      for (const socket of held) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
