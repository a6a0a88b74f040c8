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

interface Pending {
  connection: BoundableConnection;
  callback: Callback;
  ms: number;
  startedAt: number;
}

const answered: Callback = () => {};

/**
 * The statement's callback, once; the entry lets go of it. A set leaves its dropped entries in the
 * tables it outgrows or shrinks out of, and such a table that had reached the old generation keeps
 * them alive until the next full collection. An entry still holding its callback kept the resolved
 * promise's rows alive with it, and under load every statement's rows were promoted to the old
 * generation (bench/README.md, 28 November).
 */
function takeCallback(entry: Pending): Callback {
  const callback = entry.callback;
  entry.callback = answered;
  return callback;
}

/*
 * The statements on the wire, checked by one sweep while any is pending rather than by a timer of
 * their own, set and cleared for every statement of every request (bench/README.md, 27 November
 * 18:37-20:34). A silent statement ends between the limit and a tenth of it (at most a second) later.
 */
const pending = new Set<Pending>();
let sweep: NodeJS.Timeout | null = null;
let sweepEvery = Infinity;

function watch(entry: Pending): void {
  pending.add(entry);
  // Each database has its own limit: the sweep runs at the shortest one's pace.
  const every = Math.min(1000, Math.max(10, entry.ms / 10));
  if (sweep && every >= sweepEvery) return;
  if (sweep) clearInterval(sweep);
  sweepEvery = every;
  // The sweep holds no process open: the statement's socket does while it waits.
  sweep = setInterval(sweepPending, every).unref();
}

function sweepPending(): void {
  const now = performance.now();
  for (const entry of pending) {
    if (now - entry.startedAt < entry.ms) continue;
    pending.delete(entry);
    entry.connection.destroy();
    entry.connection.stream?.destroy();
    takeCallback(entry)(statementTimeoutError(entry.ms));
  }
  if (pending.size === 0 && sweep) {
    clearInterval(sweep);
    sweep = null;
    sweepEvery = Infinity;
  }
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
      const entry: Pending = { connection, callback: args[at] as Callback, ms: limit.ms, startedAt: performance.now() };
      watch(entry);
      args[at] = (err: Error | null, ...results: unknown[]) => {
        // Gone from the set when the sweep already ended it: a late answer is dropped.
        if (!pending.delete(entry)) return;
        takeCallback(entry)(err, ...results);
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
