import type { Sequelize } from 'sequelize';
import { bindPositional, sequelizeError } from './prepared.js';

interface Statement {
  all(values: unknown[], done: (err: Error | null, rows: unknown[]) => void): void;
  reset(done?: () => void): void;
  finalize(done?: () => void): void;
}

interface Connection {
  prepare(sql: string, done: (err: Error | null) => void): Statement;
}

export interface SqliteStatements {
  all<T>(sql: string, replacements?: Record<string, unknown> | unknown[]): Promise<T[]>;
  /** Finalizes the statements: SQLite will not close a connection that still has some. */
  close(): Promise<void>;
}

/** A statement's texts come from the code's templates; the bound keeps a mistake from growing the cache. */
const MAX_STATEMENTS = 500;

/** A date as Sequelize writes it to SQLite ('YYYY-MM-DD HH:MM:SS.mmm +00:00'), so bound and stored dates compare alike. */
function sqliteDate(d: Date): string {
  return Number.isNaN(d.getTime()) ? 'Invalid date' : `${d.toISOString().slice(0, 23).replace('T', ' ')} +00:00`;
}

function sqliteValue(value: unknown): unknown {
  if (value instanceof Date) return sqliteDate(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'bigint') return value.toString();
  return value;
}

/**
 * SQLite's read path, as src/prepared.ts is MySQL's: the services' SELECTs, `:name` placeholders made
 * `?`, run as prepared statements kept for reuse on Sequelize's own connection (so the same busy
 * timeout, and the rows its writes committed). Sequelize's query layer cost as much CPU as the
 * statement itself: the embedded feed went from 1.34 to 0.90 ms of CPU a request. Writes stay with
 * Sequelize, which runs each statement of this connection alone (node-sqlite3's serialize mode):
 * run side by side with the reads, a write that met another connection's lock held its pool thread
 * in the busy wait while the lock holder waited for a thread, and requests timed out. Values are
 * bound as Sequelize would have written them inline; errors become Sequelize's classes.
 */
export function sqliteStatements(sequelize: Sequelize): SqliteStatements {
  const manager = sequelize.connectionManager as unknown as { getConnection(options: object): Promise<Connection> };
  let connection: Connection | null = null;
  const statements = new Map<string, Statement>();

  /** The statement for this text, kept for reuse; beyond the bound, a one-off that is finalized after its call. */
  async function statement(sql: string): Promise<{ s: Statement; once: boolean }> {
    const current = await manager.getConnection({});
    if (current !== connection) {
      // Sequelize opened a new connection (the old one was closed): its statements went with it.
      statements.clear();
      connection = current;
    }
    const kept = statements.get(sql);
    if (kept) return { s: kept, once: false };
    // A statement that fails to prepare reports it to each of its calls, which format it below.
    const s = current.prepare(sql, () => undefined);
    if (statements.size >= MAX_STATEMENTS) return { s, once: true };
    statements.set(sql, s);
    return { s, once: false };
  }

  /**
   * Queued behind the call: node-sqlite3 leaves a statement as its last step left it, and one not
   * reset may keep its read transaction, and so an old snapshot, open on the shared connection.
   */
  const done = (s: Statement, once: boolean) => (once ? s.finalize() : s.reset());

  return {
    async all<T>(sql: string, replacements?: Record<string, unknown> | unknown[]): Promise<T[]> {
      const bound = bindPositional(sql, replacements);
      const values = bound.values.map(sqliteValue);
      const { s, once } = await statement(bound.sql);
      return new Promise<T[]>((resolve, reject) => {
        s.all(values, (err, rows) => (err ? reject(sequelizeError(sequelize, err, bound.sql, values)) : resolve(rows as T[])));
        done(s, once);
      });
    },
    async close() {
      const pending = [...statements.values()].map((s) => new Promise<void>((resolve) => s.finalize(() => resolve())));
      statements.clear();
      await Promise.all(pending);
    },
  };
}
