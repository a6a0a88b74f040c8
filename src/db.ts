import path from 'node:path';
import { QueryTypes, Sequelize, TimeoutError, Transaction, type Options } from 'sequelize';
import { SequelizeStorage, Umzug } from 'umzug';
import { SQLITE_FILE, type Config } from './config.js';
import { initModels } from './models/index.js';
import { migrations } from '../migrations/index.js';
import { preparedRunner, type PoolStats, type ReadOptions } from './prepared.js';
import { sqliteStatements } from './sqlite-statements.js';
import { boundStatements, unbounded, type StatementLimit } from './statement-timeout.js';

export type Dialect = 'sqlite' | 'mysql';

export interface Database {
  sequelize: Sequelize;
  dialect: Dialect;
  /** A read with bound values, returning plain rows: the hot paths' way to the database (`options` count on MySQL only). */
  select<T = Record<string, unknown>>(sql: string, replacements?: Record<string, unknown> | unknown[], options?: ReadOptions): Promise<T[]>;
  /** A write with bound values; returns the affected row count. */
  execute(sql: string, replacements?: Record<string, unknown> | unknown[]): Promise<number>;
  /** An INSERT of one row with bound values; returns the new row's id. */
  insert(sql: string, replacements?: Record<string, unknown> | unknown[]): Promise<number>;
  /**
   * Bound statements that commit together (a hand-written write and its audit event): on MySQL
   * prepared on one connection of the hot path's pool, past Sequelize's query and transaction layers;
   * on SQLite a Sequelize transaction, queued like every other.
   */
  transact<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /** MySQL's connection pools by name: `models` (Sequelize), `statements` and `transactions` (the prepared path); none on SQLite. */
  pools(): Array<PoolStats & { pool: string }>;
  close(): Promise<void>;
}

/** The statements of one transaction, bound by name like `Database.select`. */
export interface Tx {
  select<T = Record<string, unknown>>(sql: string, replacements?: Record<string, unknown>): Promise<T[]>;
  /** The new row's id for an INSERT (without IGNORE or an upsert), else the rows affected. */
  write(sql: string, replacements?: Record<string, unknown>): Promise<number>;
}

/** A Sequelize transaction seen as a Tx, for the shared writers (the audit trail, the webhooks' outbox) called inside one. */
export function txOf(db: Pick<Database, 'sequelize' | 'dialect'>, transaction: Transaction | null): Tx {
  return {
    select: <T>(sql: string, replacements?: Record<string, unknown>) => db.sequelize.query(sql, { replacements, type: QueryTypes.SELECT, transaction: transaction ?? undefined }) as unknown as Promise<T[]>,
    write: (sql, replacements = {}) => writeIn(db, transaction, sql, replacements),
  };
}

/** Whether a transaction handed to a shared writer is a Tx rather than a Sequelize transaction. */
export const isTx = (t: Tx | Transaction): t is Tx => typeof (t as Tx).write === 'function';

/**
 * How long a statement waits for SQLite's write lock while another process (the command line, a
 * maintenance script) holds it, before the request answers 503: as long as MySQL's pool and
 * connect timeouts, so a locked or absent database is a prompt "try again", never a hang.
 */
const SQLITE_LOCK_WAIT_MS = 5000;

/** Connections per pool: Sequelize's (models, transactions, the console) and the prepared path's two (statements, transactions), 30 in all. */
const MYSQL_POOL_MAX = 10;

const define: Options['define'] = { underscored: true, timestamps: true, createdAt: 'created_at', updatedAt: 'updated_at' };

/** The SQLite file in DATA_DIR unless a test or the caller names another. */
export function sqlitePath(config: Pick<Config, 'dataDir' | 'sqliteStorage'>): string {
  return config.sqliteStorage ?? path.join(config.dataDir, SQLITE_FILE);
}

type DatabaseConfig = Pick<Config, 'databaseUrl' | 'dataDir' | 'sqliteStorage'> & Partial<Pick<Config, 'dbQueryTimeoutMs'>>;

/** Each MySQL database's statement limit, found by its Sequelize instance (migrate() lifts it). */
const statementLimits = new WeakMap<Sequelize, StatementLimit>();

function createSequelize(config: DatabaseConfig): Sequelize {
  return inlineUpdateValues(connectSequelize(config));
}

interface QueryGenerator {
  updateQuery(table: unknown, values: unknown, where: unknown, options?: Record<string, unknown>, attributes?: unknown): { query: string; bind?: unknown[] } | string;
  escape(value: unknown): string;
}

/**
 * Sequelize 6 writes an UPDATE's values (and on SQLite its WHERE's equalities) as `$n` bind
 * parameters, but its WHERE's IN lists, LIKE patterns and functions as quoted literals, then looks
 * for `$name` across the whole statement: a user's text such as `($_` in a bulk update's condition
 * fails the statement ("Named bind parameter has no value", sequelize#12039). Its updates are made
 * with every value escaped inline, as its SELECTs and DELETEs already are, so that nothing in the
 * statement is read as a parameter.
 */
function inlineUpdateValues(sequelize: Sequelize): Sequelize {
  const generator = (sequelize.getQueryInterface() as unknown as { queryGenerator: QueryGenerator }).queryGenerator;
  const updateQuery = generator.updateQuery.bind(generator);
  // A JSON column's value reaches here as the object its getter returns; the drivers wrote it as JSON text.
  const inline = (value: unknown) =>
    generator.escape(value !== null && typeof value === 'object' && !(value instanceof Date) && !Buffer.isBuffer(value) ? JSON.stringify(value) : value);
  generator.updateQuery = (table, values, where, options = {}, attributes) => {
    const sql = updateQuery(table, values, where, Object.assign(options, { bindParam: inline }), attributes);
    if (typeof sql === 'object' && sql.bind?.length === 0) delete sql.bind;
    return sql;
  };
  return sequelize;
}

function connectSequelize(config: DatabaseConfig): Sequelize {
  if (config.databaseUrl) {
    const sequelize = new Sequelize(config.databaseUrl, {
      dialect: 'mysql',
      logging: false,
      timezone: '+00:00',
      define,
      benchmark: false,
      pool: { max: MYSQL_POOL_MAX, min: 0, acquire: 5000, idle: 10_000, evict: 5000 },
      dialectOptions: { connectTimeout: 5000, supportBigNumbers: true, decimalNumbers: true },
    });
    const limit: StatementLimit = { ms: config.dbQueryTimeoutMs ?? 0 };
    statementLimits.set(sequelize, limit);
    sequelize.addHook('afterConnect', (connection) => boundStatements(connection as Parameters<typeof boundStatements>[0], limit));
    return sequelize;
  }
  const sequelize = new Sequelize({
    dialect: 'sqlite',
    storage: sqlitePath(config),
    logging: false,
    define,
    // IMMEDIATE takes the write lock at BEGIN, so two transactions never deadlock upgrading a read lock.
    transactionType: Transaction.TYPES.IMMEDIATE,
    // One attempt: Sequelize's default retries SQLITE_BUSY five times, each waiting the busy timeout again.
    retry: { max: 1 },
  });
  // Sequelize opens one SQLite connection per transaction and offers no connect hook for this dialect:
  // each new connection waits for the write lock instead of failing at once with SQLITE_BUSY.
  const manager = sequelize.connectionManager as unknown as {
    getConnection(options?: unknown): Promise<{ configure(o: 'busyTimeout', ms: number): void; busyConfigured?: boolean }>;
  };
  const getConnection = manager.getConnection.bind(manager);
  manager.getConnection = async (options?: unknown) => {
    const connection = await getConnection(options);
    if (!connection.busyConfigured) {
      connection.configure('busyTimeout', SQLITE_LOCK_WAIT_MS);
      connection.busyConfigured = true;
    }
    return connection;
  };
  serializeTransactions(sequelize);
  return sequelize;
}

/**
 * SQLite has one writer. A transaction waiting for the write lock sleeps inside sqlite3 on one of
 * libuv's four pool threads, which the lock holder (and bcrypt) also need: a handful of concurrent
 * transactions can starve the holder until the busy timeout. Queueing managed transactions in the
 * process keeps at most one of them on the pool; other processes (the CLI) still meet the busy timeout.
 * When one times out on a lock held elsewhere, the ones queued behind it fail too instead of each
 * waiting the busy timeout again in turn: a request waits for a foreign lock once, at most.
 */
function serializeTransactions(sequelize: Sequelize): void {
  const transaction = sequelize.transaction.bind(sequelize) as (...args: unknown[]) => Promise<unknown>;
  let tail: Promise<unknown> = Promise.resolve();
  let lockTimeouts = 0;
  (sequelize as unknown as { transaction: unknown }).transaction = (...args: unknown[]) => {
    const callback = args.find((a) => typeof a === 'function');
    if (!callback) return transaction(...args);
    const queuedAt = lockTimeouts;
    const run = tail.then(async () => {
      if (lockTimeouts !== queuedAt) throw new TimeoutError(Object.assign(new Error('SQLITE_BUSY: database is locked'), { sql: 'BEGIN IMMEDIATE' }));
      try {
        return await transaction(...args);
      } catch (err) {
        if (err instanceof TimeoutError) lockTimeouts++;
        throw err;
      }
    });
    tail = run.catch(() => undefined);
    return run;
  };
}

export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  const sequelize = createSequelize(config);
  const dialect = sequelize.getDialect() as Dialect;
  initModels(sequelize);
  if (dialect === 'sqlite') {
    await sequelize.query('PRAGMA journal_mode = WAL');
    await sequelize.query('PRAGMA synchronous = NORMAL');
  }
  if (config.databaseUrl) {
    const prepared = preparedRunner(config.databaseUrl, sequelize, MYSQL_POOL_MAX, statementLimits.get(sequelize)!);
    return {
      sequelize,
      dialect,
      select: <T>(sql: string, replacements?: Record<string, unknown> | unknown[], options?: ReadOptions) => prepared.run<T[]>(sql, replacements, options),
      execute: async (sql, replacements) => Number((await prepared.run<{ affectedRows?: number }>(sql, replacements)).affectedRows ?? 0),
      insert: async (sql, replacements) => Number((await prepared.run<{ insertId: number }>(sql, replacements)).insertId),
      transact: (work) => prepared.transaction((run) => work({
        select: <T>(sql: string, replacements?: Record<string, unknown>) => run<T[]>(sql, replacements),
        async write(sql, replacements) {
          const result = await run<{ insertId?: number; affectedRows?: number }>(sql, replacements);
          return Number((isInsert(sql) ? result.insertId : result.affectedRows) ?? 0);
        },
      })),
      pools: () => {
        const models = (sequelize.connectionManager as unknown as { pool: PoolStats }).pool;
        return [
          { pool: 'models', size: models.size, available: models.available, using: models.using, waiting: models.waiting },
          ...prepared.stats(),
        ];
      },
      close: async () => {
        await Promise.all([prepared.close(), sequelize.close()]);
      },
    };
  }
  const statements = sqliteStatements(sequelize);
  return {
    sequelize,
    dialect,
    select: <T>(sql: string, replacements?: Record<string, unknown> | unknown[]) => statements.all<T>(sql, replacements),
    async execute(sql, replacements) {
      // Sequelize reports the affected row count for its UPDATE query type, whatever the statement.
      const [, affected] = (await sequelize.query(sql, { replacements, type: QueryTypes.UPDATE })) as [unknown, number];
      return Number(affected ?? 0);
    },
    async insert(sql, replacements) {
      const [id] = (await sequelize.query(sql, { replacements, type: QueryTypes.INSERT })) as [number, number];
      return Number(id);
    },
    transact: (work) => sequelize.transaction((transaction) => work(txOf({ sequelize, dialect }, transaction))),
    pools: () => [],
    close: async () => {
      await statements.close();
      await sequelize.close();
    },
  };
}

export function migrator(sequelize: Sequelize) {
  return new Umzug({
    migrations: migrations.map((m) => ({ name: m.name, up: () => m.up(sequelize), down: () => m.down(sequelize) })),
    storage: new SequelizeStorage({ sequelize, tableName: 'schema_migrations' }),
    logger: undefined,
  });
}

/**
 * Runs `work` holding a MySQL named lock (GET_LOCK, waiting up to `waitSeconds`): the lock belongs to
 * a connection, so a transaction pins one for the take and the release, and it is server-wide, so
 * its name carries the database's. Null, without running `work`, when the lock was not had in time.
 */
export async function withNamedLock<T>(sequelize: Sequelize, name: string, waitSeconds: number, work: () => Promise<T>): Promise<{ value: T } | null> {
  return sequelize.transaction(async (transaction) => {
    const lock = { replacements: { name }, type: QueryTypes.SELECT, transaction } as const;
    const lockName = "LEFT(CONCAT(:name, '@', DATABASE()), 64)";
    const [row] = await sequelize.query<{ got: number | null }>(`SELECT GET_LOCK(${lockName}, ${waitSeconds}) AS got`, lock);
    if (Number(row?.got) !== 1) return null;
    try {
      return { value: await work() };
    } finally {
      await sequelize.query(`SELECT RELEASE_LOCK(${lockName}) AS released`, lock);
    }
  });
}

/** How long an instance waits for another's migrations before it gives up starting. */
const MIGRATION_WAIT_SECONDS = 600;

/**
 * Brings the schema up to date. On MySQL, instances starting together on one database take turns
 * under a named lock: the second reads the migrations done by the first and has nothing left to run.
 */
export async function migrate(sequelize: Sequelize): Promise<string[]> {
  const up = async () => (await migrator(sequelize).up()).map((m) => m.name);
  return unbounded(statementLimits.get(sequelize), async () => {
    if (sequelize.getDialect() !== 'mysql') return up();
    const done = await withNamedLock(sequelize, 'migrate', MIGRATION_WAIT_SECONDS, up);
    if (!done) throw new Error(`Another instance has been migrating this database for ${MIGRATION_WAIT_SECONDS / 60} minutes`);
    return done.value;
  });
}

/**
 * A time bound into a Sequelize query. Sequelize drops the milliseconds of a Date replacement on
 * MySQL, which would leave a row written this second not yet due; the text keeps them (SQLite keeps
 * them anyway).
 */
export const sqlTime = (dialect: Dialect, d: Date): Date | string => (dialect === 'mysql' ? d.toISOString().replace('T', ' ').replace('Z', '') : d);

/** Timestamps as ISO strings in UTC whichever database produced them (SQLite hands back its stored text). */
export function iso(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  const s = String(value);
  // MySQL's DATETIME(3) text in UTC: already ISO 8601 but for the separator and the zone.
  if (s.length === 23 && s[10] === ' ' && s[19] === '.') return `${s.slice(0, 10)}T${s.slice(11)}Z`;
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d+)?)(?: ?(Z|[+-]\d{2}:\d{2}))?$/.exec(s);
  if (m) return new Date(`${m[1]}T${m[2]}${m[3] && m[3] !== '+00:00' ? m[3] : 'Z'}`).toISOString();
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? s : d.toISOString();
}

/** A timestamp as milliseconds since the epoch, from a Date (MySQL's hot reads) or the text SQLite stores. */
export function millis(value: Date | string): number {
  return value instanceof Date ? value.getTime() : Date.parse(iso(value)!);
}

/** A JSON text column of a plain row (what a model's json() getter does for model reads). */
export function parseJson<T>(value: string | null | undefined): T | null {
  return value ? (JSON.parse(value) as T) : null;
}

/** A DATEONLY value as YYYY-MM-DD (mysql2 may hand back a Date). */
export function day(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return String(value).slice(0, 10);
}

export async function ping(db: Database): Promise<number> {
  const started = performance.now();
  await db.sequelize.query('SELECT 1', { type: QueryTypes.SELECT });
  return performance.now() - started;
}

/** An INSERT that answers the new row's id (not an INSERT IGNORE or an upsert, which may insert none). */
const isInsert = (sql: string) => /^\s*INSERT/i.test(sql) && !/IGNORE|ON (DUPLICATE|CONFLICT)/i.test(sql);

/**
 * A bound write inside a transaction, for the statements written by hand that must commit together
 * with what records them (an audit event): the new row's id for an INSERT, else the rows affected.
 * On MySQL one commit for both is also one log flush instead of two.
 */
export async function writeIn(db: Pick<Database, 'sequelize' | 'dialect'>, transaction: Transaction | null, sql: string, replacements: Record<string, unknown>): Promise<number> {
  const values = Object.fromEntries(Object.entries(replacements).map(([k, v]) => [k, v instanceof Date ? sqlTime(db.dialect, v) : v]));
  if (isInsert(sql)) {
    const [id] = (await db.sequelize.query(sql, { replacements: values, type: QueryTypes.INSERT, transaction: transaction ?? undefined })) as unknown as [number, number];
    return Number(id);
  }
  const [, affected] = (await db.sequelize.query(sql, { replacements: values, type: QueryTypes.UPDATE, transaction: transaction ?? undefined })) as unknown as [unknown, number];
  return Number(affected ?? 0);
}

/**
 * Writes rows with one multi-row INSERT (bound values; a Date in the dialect's format) and answers
 * their ids in order. A model's bulkCreate builds an instance per row first, most of the cost of a
 * large batch. The ids of one statement are consecutive on both databases (InnoDB gives a multi-row
 * INSERT one run of ids, as Sequelize's bulkCreate also assumes; SQLite has one writer), so they
 * follow from the first (MySQL's insertId) or the last (SQLite's lastID).
 */
export async function insertRows(
  sequelize: Sequelize, table: string, columns: readonly string[], rows: ReadonlyArray<readonly unknown[]>, transaction?: Transaction,
): Promise<number[]> {
  if (rows.length === 0) return [];
  const dialect = sequelize.getDialect() === 'mysql' ? 'mysql' : 'sqlite';
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  const values = rows.flatMap((row) => row.map((v) => (v instanceof Date ? sqlTime(dialect, v) : v === undefined ? null : v)));
  const [id] = (await sequelize.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${rows.map(() => tuple).join(', ')}`, {
    replacements: values, type: QueryTypes.INSERT, transaction,
  })) as unknown as [number, number];
  const first = dialect === 'mysql' ? Number(id) : Number(id) - rows.length + 1;
  return rows.map((_, i) => first + i);
}
