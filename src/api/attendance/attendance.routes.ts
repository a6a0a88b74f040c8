import { z } from 'zod';
import { attendanceStatuses } from '../../models/attendance.js';
import { childAttendance, listStaffAttendance, markAttendance } from '../../services/attendance/attendance.js';
import type { Routers } from '../routers.js';
import { date, id, timestamp } from '../../services/schemas.js';

const status = z.enum(attendanceStatuses);

/** Attendance (CONTRACT.md section 13): one mark per student per date. */
export function registerAttendanceRoutes(r: Routers): void {
  const teachers = r.teachers;
  teachers.route(
    {
      method: 'put', path: '/attendance', summary: 'Mark students for a date (attendance.manage)',
      description: 'An upsert, all or nothing: a student not assigned to the caller answers 403 and nothing is saved.',
      body: z.object({ date: date(), records: z.array(z.object({ student_id: id(), status })).min(1).max(1000) }),
      response: z.object({ date: z.string(), saved: z.number() }),
      example: { date: '2026-11-23', records: [{ student_id: 41, status: 'present' }, { student_id: 42, status: 'late' }] },
    },
    async ({ ctx, principal, body }) => ({ message: 'Attendance saved', data: await markAttendance(ctx, principal, body) }),
  );
  teachers.route(
    {
      method: 'get', path: '/attendance', summary: "The caller's students and their marks for a date (attendance.manage)",
      description: 'Every assigned student that is not archived, with `status` null where no mark exists yet.',
      query: z.object({ date: date(), grade: z.string().trim().min(1).max(60).optional() }),
      response: z.array(z.object({
        student_id: z.number(), student_full_name: z.string(), roll_no: z.string(), grade: z.string(), status: status.nullable(),
        marked_by_staff_id: z.number().nullable(), marked_at: timestamp().nullable(),
      })),
    },
    async ({ ctx, principal, query }) => ({ data: await listStaffAttendance(ctx, principal, query) }),
  );

  r.parent.route(
    {
      method: 'get', path: '/attendance', summary: "A child's marks and their summary",
      description: 'Without student_id, the first child; `from` and `to` (both included) may each be left open.',
      query: z.object({ student_id: id().optional(), from: date().optional(), to: date().optional() }),
      response: z.object({
        student_id: z.number(), from: z.string().nullable(), to: z.string().nullable(),
        marks: z.array(z.object({ date: z.string(), status })),
        summary: z.object({ present: z.number(), absent: z.number(), late: z.number(), excused: z.number() }),
      }),
      errors: [404],
    },
    async ({ ctx, principal, query }) => ({ data: await childAttendance(ctx, principal, query) }),
  );
}
