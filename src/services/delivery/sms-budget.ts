import { DateTime } from 'luxon';
import { QueryTypes, type Transaction } from 'sequelize';
import type { AppContext } from '../../context.js';

/** The month an SMS counts in: the calendar month of the school's time zone, `YYYY-MM`. */
export const smsMonth = (now: Date, zone: string): string => DateTime.fromJSDate(now, { zone }).toFormat('yyyy-MM');

/**
 * Takes up to `wanted` SMS from the school's monthly limit, in the caller's transaction, and answers
 * how many it got. One statement claims them: an upsert of the month's counter that adds what is
 * left under the limit (at most `wanted`) and notes that amount, read back while this transaction
 * still holds the row, so concurrent posts, here or on another instance, never take more than the
 * limit between them. The second assignment computes the grant again from `used` as it was, so the
 * statement means the same whether the database assigns left to right (MySQL) or all at once (SQLite).
 */
export async function claimSms(
  ctx: AppContext, school: { id: string; timezone: string; limit: number }, wanted: number, now: Date, transaction: Transaction,
): Promise<number> {
  if (wanted <= 0) return 0;
  const month = smsMonth(now, school.timezone);
  const mysql = ctx.db.dialect === 'mysql';
  const [least, greatest] = mysql ? ['LEAST', 'GREATEST'] : ['MIN', 'MAX'];
  const grant = `${least}(:wanted, ${greatest}(0, :limit - used))`;
  const first = `${least}(:wanted, :limit)`;
  const sql = mysql
    ? `INSERT INTO sms_usage (school_id, month, used, granted) VALUES (:school, :month, ${first}, ${first})
       ON DUPLICATE KEY UPDATE granted = ${grant}, used = used + ${grant}`
    : `INSERT INTO sms_usage (school_id, month, used, granted) VALUES (:school, :month, ${first}, ${first})
       ON CONFLICT (school_id, month) DO UPDATE SET granted = ${grant}, used = used + ${grant}`;
  const replacements = { school: school.id, month, wanted, limit: school.limit };
  await ctx.db.sequelize.query(sql, { replacements, type: QueryTypes.INSERT, transaction });
  const [row] = await ctx.db.sequelize.query<{ granted: number }>(
    'SELECT granted FROM sms_usage WHERE school_id = :school AND month = :month', { replacements, type: QueryTypes.SELECT, transaction },
  );
  return Number(row?.granted ?? 0);
}

/** The SMS the school has sent (or holds) this month towards its limit. */
export async function smsUsedThisMonth(ctx: AppContext, school: { id: string; timezone: string }, now = new Date()): Promise<number> {
  const [row] = await ctx.db.select<{ used: number }>('SELECT used FROM sms_usage WHERE school_id = :school AND month = :month', {
    school: school.id, month: smsMonth(now, school.timezone),
  });
  return Number(row?.used ?? 0);
}
