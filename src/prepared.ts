import mysql from 'mysql2';
import type { Sequelize } from 'sequelize';
import { boundStatements, type StatementLimit } from './statement-timeout.js';

/**
 * MySQL's hot path: a statement with `:name` (or `?`) placeholders run as a server-side prepared
 * statement, skipping the per-call work of Sequelize's query layer (replacement parsing, a stack
 * trace per query, a moment-timezone parse of every date). Rows come back as mysql2 reads them,
 * numbers as numbers and dates as the text SQLite gives too ('YYYY-MM-DD HH:MM:SS.mmm', in UTC),
 * which iso() turns into ISO 8601 by rearranging it: mysql2 would otherwise build each Date by
 * printing that text and parsing it again.
 */

type Part = string | { name: string } | { position: number };

type QueryClass = new (connection: unknown, sequelize: Sequelize, options: object) => { formatError(err: Error, stack?: string): Error };

interface Parsed {
  parts: Part[];
  /** The statement with one `?` a placeholder, built once: mysql2 keys its statement cache by this text. */
  plain: string;
}

const parsed = new Map<string, Parsed>();
/** Statements are built from the code's templates, so the cache stays small; a bound keeps a mistake from growing it. */
const MAX_PARSED = 2000;

/**
 * The statement cut at its placeholders, skipping quoted strings and identifiers, without its
 * comments and with each run of white space outside quotes made one space: mysql2 hashes the text
 * as a cache key on every call.
 */
function parse(sql: string): Parsed {
  const parts: Part[] = [];
  let text = '';
  let position = 0;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]!;
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < sql.length && sql[j] !== c) j += sql[j] === '\\' ? 2 : 1;
      text += sql.slice(i, j + 1);
      i = j;
    } else if (c === '?') {
      parts.push(text, { position: position++ });
      text = '';
    } else if (c === ':' && /[A-Za-z_]/.test(sql[i + 1] ?? '') && !/[\w:]/.test(sql[i - 1] ?? '')) {
      const name = /^[A-Za-z_]\w*/.exec(sql.slice(i + 1))![0];
      parts.push(text, { name });
      text = '';
      i += name.length;
    } else if ((c === '-' && sql[i + 1] === '-' && /\s/.test(sql[i + 2] ?? ' ')) || (c === '/' && sql[i + 1] === '*')) {
      // A comment goes: with the line breaks made spaces, a -- comment would swallow the rest.
      // (MySQL reads -- as a comment only before white space: `a--1` is a minus minus one.)
      const close = c === '-' ? sql.indexOf('\n', i) : sql.indexOf('*/', i + 2) + 1;
      i = close <= 0 ? sql.length : close;
      if (!text.endsWith(' ')) text += ' ';
    } else if (/\s/.test(c)) {
      if (!text.endsWith(' ')) text += ' ';
    } else {
      text += c;
    }
  }
  parts.push(text);
  return { parts, plain: parts.map((p) => (typeof p === 'string' ? p : '?')).join('').trim() };
}

/** `?` placeholders and their values in order; a list becomes `?, ?, …` (an empty one NULL, so `IN ()` matches nothing). */
export function bindPositional(sql: string, replacements: Record<string, unknown> | unknown[] = {}): { sql: string; values: unknown[] } {
  let statement = parsed.get(sql);
  if (!statement) {
    statement = parse(sql);
    if (parsed.size >= MAX_PARSED) parsed.clear();
    parsed.set(sql, statement);
  }
  const values: unknown[] = [];
  let lists = false;
  for (const part of statement.parts) {
    if (typeof part === 'string') continue;
    const key = 'name' in part ? part.name : part.position;
    const value = Array.isArray(replacements) ? replacements[key as number] : (replacements as Record<string, unknown>)[key as string];
    if (value === undefined) throw new Error(`The statement's placeholder ${'name' in part ? `:${part.name}` : `#${part.position + 1}`} has no value`);
    values.push(value);
    if (Array.isArray(value)) lists = true;
  }
  if (!lists) return { sql: statement.plain, values };
  let out = '';
  const flat: unknown[] = [];
  let next = 0;
  for (const part of statement.parts) {
    if (typeof part === 'string') {
      out += part;
      continue;
    }
    const value = values[next++];
    if (Array.isArray(value)) {
      out += value.length === 0 ? 'NULL' : value.map(() => '?').join(', ');
      flat.push(...value);
    } else {
      out += '?';
      flat.push(value);
    }
  }
  return { sql: out.trim(), values: flat };
}

/**
 * A driver's error as the Sequelize error class every other query raises (unique keys, lost
 * connections, SQLite's busy timeout and the rest map alike), carrying the statement and its values.
 */
export function sequelizeError(sequelize: Sequelize, err: Error, sql: string, values: unknown[]): Error {
  const Query = (sequelize as unknown as { dialect: { Query: QueryClass } }).dialect.Query;
  Object.assign(err, { sql, parameters: values });
  return new Query(null, sequelize, {}).formatError(err);
}

export interface PoolStats {
  size: number;
  available: number;
  using: number;
  waiting: number;
}

/** How a statement's rows are read. */
export interface ReadOptions {
  /**
   * DATETIME values as Date objects, which mysql2 makes from the binary row directly, instead of
   * text that it pads and joins piece by piece: for the hot reads whose every time goes through
   * `iso()`. DATE values stay text.
   */
  dateObjects?: boolean;
}

export interface PreparedRunner {
  run<T>(sql: string, replacements?: Record<string, unknown> | unknown[], options?: ReadOptions): Promise<T>;
  /** `work` on one connection in one transaction, ended by COMMIT (ROLLBACK when it throws), its statements prepared like `run`'s. */
  transaction<T>(work: (run: <R>(sql: string, replacements?: Record<string, unknown> | unknown[]) => Promise<R>) => Promise<T>): Promise<T>;
  /** The pools by name: `statements` (`run`) and `transactions`. */
  stats(): Array<PoolStats & { pool: string }>;
  close(): Promise<void>;
}

// mysql2 counts its connections in these fields and offers no public figure.
interface Mysql2PoolState {
  _allConnections: { length: number };
  _freeConnections: { length: number };
  _connectionQueue: { length: number };
}

/**
 * A pool of its own: Sequelize's connections carry a per-field type cast (dates through
 * moment-timezone) that mysql2's binary protocol runs through a wrapper object per value. These
 * connections read values natively, in UTC, and count changed rows as Sequelize's do.
 */
export function preparedRunner(databaseUrl: string, sequelize: Sequelize, connectionLimit: number, limit: StatementLimit): PreparedRunner {
  const createPool = (size: number, maxPreparedStatements: number, dateStrings: true | ['DATE']) => mysql.createPool({
    uri: databaseUrl,
    // Kept open once made (mysql2's idle sweep would close every free one at each pass, under load too).
    connectionLimit: size,
    connectTimeout: 5000,
    timezone: 'Z',
    dateStrings,
    supportBigNumbers: true,
    decimalNumbers: true,
    flags: ['-FOUND_ROWS'],
    maxPreparedStatements,
  });
  // The prepared statements a connection keeps (mysql2 closes the least recently used beyond it):
  // the service's own statements fit, and the pools stay far below max_prepared_stmt_count.
  // Every authenticated request runs at least two statements here (the session check and its
  // read), hence twice the connections of the other pools. Its rows bring DATETIME values as Date
  // objects, as the hot reads want them: options given per call cost mysql2 a merged copy and a
  // slower parser lookup on each statement, so the statements that want text ask for it instead.
  const pool = createPool(connectionLimit * 2, 256, ['DATE']);
  // Transactions run on connections of their own with autocommit off: the first statement opens the
  // transaction and COMMIT ends it, a round trip fewer than START TRANSACTION for every write. Only
  // the few hand-written writes run there (`Database.transact`), so they keep fewer statements.
  const transactionPool = createPool(connectionLimit, 64, true);
  const autocommitOff = new WeakSet<mysql.PoolConnection>();
  for (const p of [pool, transactionPool]) p.on('connection', (connection) => boundStatements(connection as unknown as Parameters<typeof boundStatements>[0], limit));
  // Options beyond the pool's own, for one statement: the statements pool's text readers ask for it.
  const asText = { dateStrings: true } as const;
  const execute = async <T>(on: mysql.Pool | mysql.PoolConnection, sql: string, replacements?: Record<string, unknown> | unknown[], perCall?: typeof asText): Promise<T> => {
    const bound = bindPositional(sql, replacements);
    const values = bound.values as mysql.ExecuteValues[];
    try {
      return await new Promise<T>((resolve, reject) => {
        const done = (err: mysql.QueryError | null, result: unknown) => (err ? reject(err) : resolve(result as T));
        if (perCall) on.execute({ sql: bound.sql, ...perCall }, values, done);
        else on.execute(bound.sql, values, done);
      });
    } catch (err) {
      throw sequelizeError(sequelize, err as Error, bound.sql, bound.values);
    }
  };
  const control = (connection: mysql.PoolConnection, sql: string) =>
    new Promise<void>((resolve, reject) => connection.query(sql, (err) => (err ? reject(sequelizeError(sequelize, err, sql, [])) : resolve())));
  return {
    run: <T>(sql: string, replacements?: Record<string, unknown> | unknown[], options?: ReadOptions) => execute<T>(pool, sql, replacements, options?.dateObjects ? undefined : asText),
    async transaction(work) {
      const connection = await new Promise<mysql.PoolConnection>((resolve, reject) =>
        transactionPool.getConnection((err, c) => (err ? reject(sequelizeError(sequelize, err, 'SET autocommit = 0', [])) : resolve(c))));
      let reusable = true;
      try {
        if (!autocommitOff.has(connection)) {
          await control(connection, 'SET autocommit = 0');
          autocommitOff.add(connection);
        }
        try {
          const result = await work((sql, replacements) => execute(connection, sql, replacements));
          await control(connection, 'COMMIT');
          return result;
        } catch (err) {
          // A connection whose rollback failed may still hold the transaction: it is closed, not reused.
          await control(connection, 'ROLLBACK').catch(() => (reusable = false));
          throw err;
        }
      } catch (err) {
        if ((err as { fatal?: boolean }).fatal || (err as { parent?: { fatal?: boolean } }).parent?.fatal) reusable = false;
        throw err;
      } finally {
        if (reusable) connection.release();
        else connection.destroy();
      }
    },
    stats() {
      return ([['statements', pool], ['transactions', transactionPool]] as const).map(([name, p]) => {
        const state = p as unknown as Mysql2PoolState;
        const size = state._allConnections.length;
        const available = state._freeConnections.length;
        return { pool: name, size, available, using: size - available, waiting: state._connectionQueue.length };
      });
    },
    close: () => Promise.all([pool, transactionPool].map((p) => new Promise<void>((resolve) => p.end(() => resolve())))).then(() => undefined),
  };
}
