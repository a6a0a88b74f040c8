/**
 * Preloaded into the service for the EXPLAIN pass only (`node --import tsx --import ./bench/sql-log.ts
 * src/server.ts`): every statement the service sends while answering a request, with its values
 * inlined, goes to BENCH_SQL_LOG as one JSON line, so the plans are taken on the SQL the service
 * really runs. Two paths send them: Sequelize (models, transactions, the console) and the prepared
 * statements of `src/prepared.ts`, on a mysql2 pool of their own. The background jobs' statements,
 * run from timers outside any request, are left out.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { appendFileSync } from 'node:fs';
import http from 'node:http';
import mysql from 'mysql2';
import { Sequelize } from 'sequelize';

const file = process.env.BENCH_SQL_LOG;
if (file) {
  const inRequest = new AsyncLocalStorage<true>();
  const emit = http.Server.prototype.emit as (this: http.Server, event: string, ...rest: unknown[]) => boolean;
  http.Server.prototype.emit = function (this: http.Server, event: string, ...rest: unknown[]) {
    return event === 'request' ? inRequest.run(true, () => emit.call(this, event, ...rest)) : emit.call(this, event, ...rest);
  } as typeof http.Server.prototype.emit;
  const write = (sql: string) => {
    if (inRequest.getStore()) appendFileSync(file, JSON.stringify(sql) + '\n');
  };
  const log = (message: string) => write(message.replace(/^Executing \([^)]*\): /, ''));
  const query = Sequelize.prototype.query;
  Sequelize.prototype.query = function (this: Sequelize, ...args: Parameters<Sequelize['query']>) {
    (this as unknown as { options: { logging: unknown } }).options.logging = log;
    return query.apply(this, args);
  } as Sequelize['query'];

  // mysql2's typings leave its Pool class out; `src/prepared.ts` runs its statements through this method.
  // A statement comes as its text, or as options holding it (a read with options of its own).
  type Statement = string | { sql: string };
  const pool = (mysql as unknown as { Pool: { prototype: { execute: (sql: Statement, values: unknown[], cb: unknown) => unknown } } }).Pool.prototype;
  const execute = pool.execute;
  pool.execute = function (this: unknown, sql: Statement, values: unknown[], cb: unknown) {
    write(mysql.format(typeof sql === 'string' ? sql : sql.sql, values as never));
    return execute.call(this, sql, values, cb);
  };
}
