import type { AppContext } from '../context.js';
import { studentStatuses, type StudentStatus } from '../models/student.js';
import { isPlatformAdmin, type ConsoleAdmin } from './auth.js';

export interface DashboardCounts {
  /** The school's name, or "All schools" for the operator. */
  scope: string;
  students: Record<StudentStatus, number> | null;
  active_staff: number | null;
  /** Open and in-progress threads: the ones still waiting for the school. */
  open_write_to: number | null;
  failed_notifications_24h: number;
}

const DAY_MS = 86_400_000;

/**
 * The dashboard's counts for the admin's school (every school for the operator), each an indexed
 * COUNT led by school_id. The it_contact, who sees devices and notifications only, gets the
 * notification count alone.
 */
export async function dashboardCounts(ctx: AppContext, admin: ConsoleAdmin): Promise<DashboardCounts> {
  const all = isPlatformAdmin(admin);
  const school = all ? '' : 'school_id = :school AND';
  const params = { school: admin.schoolId, since: new Date(Date.now() - DAY_MS) };
  const count = async (sql: string, extra: Record<string, unknown> = {}) =>
    Number((await ctx.db.select<{ n: number }>(sql, { ...params, ...extra }))[0]?.n ?? 0);

  const [name] = all ? [] : await ctx.db.select<{ name: string }>('SELECT name FROM schools WHERE id = :school', params);
  const failed = await count(`SELECT COUNT(*) AS n FROM notifications WHERE ${school} status = :failed AND updated_at >= :since`, { failed: 'failed' });
  if (admin.role === 'it_contact') {
    return { scope: name?.name ?? '', students: null, active_staff: null, open_write_to: null, failed_notifications_24h: failed };
  }
  const byStatus = await ctx.db.select<{ status: StudentStatus; n: number }>(
    `SELECT status, COUNT(*) AS n FROM students ${all ? '' : 'WHERE school_id = :school'} GROUP BY status`,
    params,
  );
  const students = Object.fromEntries(studentStatuses.map((s) => [s, 0])) as Record<StudentStatus, number>;
  for (const row of byStatus) if (row.status in students) students[row.status] = Number(row.n);
  return {
    scope: all ? 'All schools' : (name?.name ?? ''),
    students,
    active_staff: await count(`SELECT COUNT(*) AS n FROM staff WHERE ${school} status = 1`),
    open_write_to: await count(`SELECT COUNT(*) AS n FROM write_to_requests WHERE ${school} status IN (:open)`, { open: ['open', 'in_progress'] }),
    failed_notifications_24h: failed,
  };
}
