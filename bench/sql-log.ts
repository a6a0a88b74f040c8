/**
 * Preloaded into the service for the EXPLAIN pass only (`node --import tsx --import ./bench/sql-log.ts
 * src/server.ts`): every statement Sequelize sends, with its values inlined, goes to BENCH_SQL_LOG as
 * one JSON line, so the plans are taken on the SQL the service really runs.
 */
import { appendFileSync } from 'node:fs';
import { Sequelize } from 'sequelize';

const file = process.env.BENCH_SQL_LOG;
if (file) {
  const log = (message: string) => appendFileSync(file, JSON.stringify(message.replace(/^Executing \([^)]*\): /, '')) + '\n');
  const query = Sequelize.prototype.query;
  Sequelize.prototype.query = function (this: Sequelize, ...args: Parameters<Sequelize['query']>) {
    (this as unknown as { options: { logging: unknown } }).options.logging = log;
    return query.apply(this, args);
  } as Sequelize['query'];
}
