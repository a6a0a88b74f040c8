/**
 * A bound on every MySQL statement (DB_QUERY_TIMEOUT_MS), for both ways to the database: Sequelize's
 * connections and the prepared-statement pool. A database that goes silent mid-query (a hung server,
 * a dropped network) never answers and never closes the socket, so without it a request would wait
 * for ever; with it the statement fails as a lost connection (a 503), and the connection is closed
 * so that its pool opens a fresh one when the database is back.
 */

type Callback = (err: Error | null, ...results: unknown[]) => void;

interface BoundableConnection {
  query(...args: unknown[]): unknown;
  execute(...args: unknown[]): unknown;
  destroy(): void;
  stream?: { destroy(): void };
}

/** The limit in force, per database: migrations lift it (a long ALTER TABLE is no outage). */
export interface StatementLimit {
  ms: number;
}

/** Marked fatal, as mysql2 marks the errors that end a connection: the error handler answers 503. */
export function statementTimeoutError(ms: number): Error {
  return Object.assign(new Error(`The database did not answer within ${ms} ms`), { code: 'PROTOCOL_SEQUENCE_TIMEOUT', fatal: true });
}

/**
 * Wraps a connection's `query` and `execute` so the callback gets the timeout error when the limit
 * passes; the connection is then destroyed, its socket too (a silent server never acknowledges a
 * close), and a late answer is dropped.
 */
export function boundStatements(connection: BoundableConnection, limit: StatementLimit): void {
  for (const method of ['query', 'execute'] as const) {
    const original = connection[method].bind(connection);
    connection[method] = (...args: unknown[]) => {
      const at = args.findIndex((a) => typeof a === 'function');
      if (at < 0 || limit.ms <= 0) return original(...args);
      const callback = args[at] as Callback;
      const ms = limit.ms;
      let settled = false;
      const timer = setTimeout(() => {
        settled = true;
        connection.destroy();
        connection.stream?.destroy();
        callback(statementTimeoutError(ms));
      }, ms);
      args[at] = (err: Error | null, ...results: unknown[]) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        callback(err, ...results);
      };
      return original(...args);
    };
  }
}

/** Runs `work` (the migrations) with the limit lifted, restoring it afterwards. */
export async function unbounded<T>(limit: StatementLimit | undefined, work: () => Promise<T>): Promise<T> {
  if (!limit) return work();
  const ms = limit.ms;
  limit.ms = 0;
  try {
    return await work();
  } finally {
    limit.ms = ms;
  }
}
