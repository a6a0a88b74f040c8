import { z } from 'zod';
import {
  assertDiaryEntryEditable, createDiaryEntry, deleteDiaryEntry, diaryChangesSchema, diaryGrade, listParentDiary, listStaffDiary, newDiarySchema, updateDiaryEntry,
} from '../../services/diary/diary.js';
import type { Routers } from '../routers.js';
import { attachmentsView, date, id, idParam, pageQuery, timestamp } from '../../services/schemas.js';

const diaryView = z.object({
  id: z.number(), school_id: z.string(), staff_id: z.number(), author_name: z.string().nullable(), grade: z.string().nullable(), student_id: z.number().nullable(),
  title: z.string(), description: z.string().nullable(), due_date: z.string().nullable(), created_at: timestamp(), updated_at: timestamp(),
  attachments: attachmentsView,
});
/** Diary entries (CONTRACT.md section 13): staff write them, parents read their children's. */
export function registerDiaryRoutes(r: Routers): void {
  const teachers = r.teachers;
  teachers.route(
    {
      method: 'post', path: '/diary', status: 201, summary: 'Write a diary entry for a grade or one student (diary.create)',
      body: newDiarySchema, response: diaryView, errors: [403],
      example: { grade: '5', title: 'Maths homework', description: 'Exercise 4.2, questions 1 to 10', due_date: '2026-11-24' },
    },
    async ({ ctx, principal, body }) => ({ message: 'Diary entry created', data: await createDiaryEntry(ctx, principal, body) }),
  );
  teachers.route(
    {
      method: 'get', path: '/diary', summary: 'The diary, newest first (diary.create)',
      description: 'Grade-wide entries, entries for the caller\'s students and the caller\'s own; with diary.manage every entry of the school. `date` keeps the entries written that day (UTC).',
      query: z.object({ grade: diaryGrade().optional(), date: date().optional(), ...pageQuery(20) }), response: z.array(diaryView),
    },
    async ({ ctx, principal, query }) => ({ data: await listStaffDiary(ctx, principal, query) }),
  );
  teachers.route(
    {
      method: 'put', path: '/diary/:id', params: idParam, summary: 'Change a diary entry (own: diary.create; others\': diary.manage)',
      found: ({ principal, params }) => assertDiaryEntryEditable(principal, params.id),
      description: 'Naming grade or student_id retargets the entry, again to exactly one of the two.',
      body: diaryChangesSchema, response: diaryView, errors: [404],
      example: { title: 'Maths homework (corrected)', due_date: '2026-11-25' },
    },
    async ({ ctx, principal, params, body }) => ({ message: 'Diary entry updated', data: await updateDiaryEntry(ctx, principal, params.id, body) }),
  );
  teachers.route(
    { method: 'delete', path: '/diary/:id', params: idParam, summary: 'Delete a diary entry (own: diary.create; others\': diary.manage)', errors: [404] },
    async ({ ctx, principal, params }) => {
      await deleteDiaryEntry(ctx, principal, params.id);
      return { message: 'Diary entry deleted' };
    },
  );

  r.parent.route(
    {
      method: 'get', path: '/diary', summary: "The children's diary, newest first",
      description: 'Entries for the parent\'s children and their grades, or for the one child named; `from` and `to` bound the day written (UTC).',
      query: z.object({ student_id: id().optional(), from: date().optional(), to: date().optional(), ...pageQuery(20) }),
      response: z.array(diaryView.extend({ read_at: timestamp().nullable().describe("When this parent first read it; null while unread") })),
    },
    async ({ ctx, principal, query }) => ({ data: await listParentDiary(ctx, principal, query) }),
  );
}
