import mysql from 'mysql2/promise';

export interface ExplainRow {
  id: number | null;
  select_type: string;
  table: string | null;
  type: string | null;
  key: string | null;
  rows: number | null;
  Extra: string | null;
}

export interface StatementPlan {
  sql: string;
  plan: ExplainRow[] | null;
  /** A table read whole (ALL) or a whole index scanned (index) over more than a thousand rows. */
  fullScans: string[];
  note?: string;
}

const skipped = /^(START TRANSACTION|BEGIN|COMMIT|ROLLBACK|SET |SAVEPOINT|RELEASE|SHOW |SELECT 1\b|SELECT 1\+1)/i;

/** The statement with its literals blanked, so repeats of one statement with other values count once. */
export const shape = (sql: string) => sql.replace(/'(?:[^'\\]|\\.)*'/g, '?').replace(/\b\d+\b/g, '?').replace(/\s+/g, ' ').trim();

export function distinctStatements(lines: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const sql of lines) {
    if (skipped.test(sql.trim())) continue;
    const key = shape(sql);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(sql.trim().replace(/;$/, ''));
  }
  return out;
}

/** EXPLAIN of each statement on the data set itself (MariaDB's EXPLAIN of an UPDATE or DELETE changes nothing). */
export async function explainAll(databaseUrl: string, statements: string[]): Promise<StatementPlan[]> {
  const conn = await mysql.createConnection(databaseUrl);
  try {
    const out: StatementPlan[] = [];
    for (const sql of statements) {
      if (/^\s*INSERT\b/i.test(sql)) {
        out.push({ sql, plan: null, fullScans: [], note: 'insert: no read plan' });
        continue;
      }
      try {
        const [rows] = await conn.query(`EXPLAIN ${sql}`);
        const plan = (rows as ExplainRow[]).map((r) => ({
          id: r.id, select_type: r.select_type, table: r.table, type: r.type, key: r.key, rows: r.rows === null ? null : Number(r.rows), Extra: r.Extra,
        }));
        const fullScans = plan.filter((r) => (r.type === 'ALL' || r.type === 'index') && (r.rows ?? 0) > 1000).map((r) => `${r.table} (${r.type}, ${r.rows} rows)`);
        out.push({ sql, plan, fullScans });
      } catch (err) {
        out.push({ sql, plan: null, fullScans: [], note: `EXPLAIN failed: ${(err as Error).message}` });
      }
    }
    return out;
  } finally {
    await conn.end();
  }
}
