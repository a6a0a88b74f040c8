import type { Logger } from 'pino';
import { createClient } from 'redis';

/** A command Redis has not answered by then counts as Redis being away: requests must not wait on it. */
const COMMAND_TIMEOUT_MS = 250;
/**
 * A command within `ms`: node-redis's own command timeout covers only the wait to be written, not
 * the answer of a server that went silent. A late answer is dropped; replies stay in order.
 */
function within<T>(ms: number, command: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([command, late]).finally(() => clearTimeout(timer));
}

/** While Redis is away, how often it is asked again whether it answers. */
const PROBE_INTERVAL_MS = 1000;
/** A Redis that takes the connection but has not answered by then at start-up is away (and logged so). */
const START_WAIT_MS = 3000;

export interface SharedRedis {
  /** True while Redis answers; false from a failed command until it answers a probe again. */
  available(): boolean;
  /** One command, failing fast (offline, or no answer in time) and marking Redis away when it fails. */
  command<T = unknown>(args: string[]): Promise<T>;
  /** Called each time Redis becomes available (again). */
  onAvailable(listener: () => void): void;
  /** The round trip of a PING in milliseconds, or null when Redis does not answer. */
  ping(): Promise<number | null>;
  close(): Promise<void>;
}

/**
 * The connection to the optional Redis (REDIS_URL) that holds state shared by every instance. It never
 * holds up the service: the start does not wait for it, commands are not queued while it is away
 * (they fail at once and the caller falls back to the process), and it reconnects by itself. Losing
 * and regaining it is logged once each way.
 */
export function connectRedis(url: string, log: Logger): SharedRedis {
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: { connectTimeout: 2000, reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 5000) },
  });
  const listeners: Array<() => void> = [];
  let state: 'starting' | 'up' | 'down' = 'starting';
  let probe: NodeJS.Timeout | null = null;
  let closed = false;

  const markUp = () => {
    if (state === 'up' || closed) return;
    log.info(state === 'down' ? 'Redis answers again: rate limits are shared between instances' : 'Redis connected: rate limits are shared between instances');
    state = 'up';
    if (probe) clearInterval(probe);
    probe = null;
    for (const listener of listeners) listener();
  };
  const markDown = (err: unknown) => {
    if (state === 'down' || closed) return;
    log.warn({ err: err instanceof Error ? err.message : String(err) }, 'Redis is not answering: rate limits are counted per instance until it does');
    state = 'down';
    // A silent server keeps its socket open, so no reconnection will say it is back: ask it.
    probe = setInterval(() => {
      if (client.isReady) within(COMMAND_TIMEOUT_MS, client.sendCommand(['PING'])).then(markUp, () => undefined);
    }, PROBE_INTERVAL_MS);
    probe.unref();
  };

  client.on('error', markDown);
  client.on('ready', markUp);
  client.connect().catch(markDown);
  // A server that accepts the connection and stays silent raises no error: say so once, as for any other.
  const started = setTimeout(() => {
    if (state === 'starting') markDown(new Error(`Redis did not answer within ${START_WAIT_MS} ms of the start`));
  }, START_WAIT_MS);
  started.unref();

  return {
    available: () => state === 'up',
    async command<T>(args: string[]): Promise<T> {
      try {
        return (await within(COMMAND_TIMEOUT_MS, client.sendCommand(args))) as T;
      } catch (err) {
        // Before the first connection the 'error' event speaks for Redis; a command may not.
        if (state === 'up') markDown(err);
        throw err;
      }
    },
    onAvailable(listener) {
      listeners.push(listener);
    },
    async ping() {
      if (!client.isReady) return null;
      const started = performance.now();
      try {
        await within(COMMAND_TIMEOUT_MS * 4, client.sendCommand(['PING']));
      } catch {
        return null;
      }
      markUp();
      return Math.round((performance.now() - started) * 100) / 100;
    },
    async close() {
      closed = true;
      clearTimeout(started);
      if (probe) clearInterval(probe);
      client.destroy();
    },
  };
}
