/**
 * The parents' feed or board statement alone against a generated MariaDB data set, no HTTP and no
 * service: what MariaDB spends a statement (its CPU, buffer-pool page requests, pages read from
 * disk) for parents drawn at random over all the data set's schools, as the load's parents are.
 * Run the 1,000-school and the one-school sets in turn to see what the larger set costs MariaDB:
 *
 *   tsx bench/statement-probe.ts                                  feed, sp_bench, 6,000 statements, 20 connections
 *   tsx bench/statement-probe.ts --database sp_bench_one --board  the board on the one-school set
 *
 * Generate the data sets first (`npm run bench` does). The buffer pool is taken as the server has it.
 */
import { parseArgs } from 'node:util';
import mysql from 'mysql2/promise';
import { parentFeedSql } from '../src/services/activities/activities.js';
import { parentBoardSql } from '../src/services/notices/notices.js';
import { parentId, perSchool, readMeta, rng, schoolId } from './layout.js';
import { cpuMsOf, databasePid } from './processes.js';

const { values: args } = parseArgs({
  options: {
    database: { type: 'string', default: 'sp_bench' },
    board: { type: 'boolean', default: false },
    statements: { type: 'string', default: '6000' },
    connections: { type: 'string', default: '20' },
  },
});
const meta = readMeta(args.database!);
if (!meta || meta.dialect !== 'mysql') throw new Error(`No MariaDB data set ${args.database}: run npm run bench to generate it`);
const total = Number(args.statements);
const connections = Number(args.connections);
const pool = mysql.createPool({ uri: meta.databaseUrl, namedPlaceholders: true, connectionLimit: connections });
const sql = args.board ? parentBoardSql(true) : parentFeedSql(true, { oneChild: false, type: '' });
const r = rng(42);
const calls = Array.from({ length: total }, () => {
  const s = Math.floor(r() * meta.schools);
  return { school: schoolId(s), parent: parentId(s, Math.floor(r() * perSchool.parents)), limit: 20, offset: 0 };
});

const innodb = async () => {
  const [rows] = await pool.query("SHOW GLOBAL STATUS WHERE Variable_name IN ('Innodb_buffer_pool_reads', 'Innodb_buffer_pool_read_requests')");
  return new Map((rows as Array<{ Variable_name: string; Value: string }>).map((x) => [x.Variable_name, Number(x.Value)]));
};
const pid = databasePid();
const before = await innodb();
const cpuBefore = pid ? cpuMsOf(pid) : null;
const started = performance.now();
let next = 0;
let rows = 0;
await Promise.all(Array.from({ length: connections }, async () => {
  while (next < calls.length) {
    const [page] = await pool.execute(sql, calls[next++]);
    rows += (page as unknown[]).length;
  }
}));
const ms = performance.now() - started;
const cpuAfter = pid ? cpuMsOf(pid) : null;
const after = await innodb();
const per = (a: number, digits: number) => Number((a / total).toFixed(digits));
const delta = (name: string) => after.get(name)! - before.get(name)!;
console.log(JSON.stringify({
  database: args.database, statement: args.board ? 'board' : 'feed', statements: total, connections,
  rowsPerPage: per(rows, 1),
  wallMsPerStatement: per(ms, 3),
  mariadbCpuMsPerStatement: cpuBefore !== null && cpuAfter !== null ? per(cpuAfter - cpuBefore, 3) : null,
  pageRequestsPerStatement: per(delta('Innodb_buffer_pool_read_requests'), 1),
  diskReadsPerStatement: per(delta('Innodb_buffer_pool_reads'), 2),
}));
await pool.end();
