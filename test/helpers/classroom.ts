import { Activity, AudienceTarget, DiaryEntry, Notice, StaffStudent, WriteToRequest } from '../../src/models/index.js';

/** Rows the engagement, diary and attendance tests stand on, written with the models so no other feature's routes are needed. */
export async function activity(schoolId: string, staffId: number, opts: Partial<{ student_id: number | null; status: 'draft' | 'published' | 'cancelled'; deleted: boolean }> = {}) {
  const row = await Activity.create({
    school_id: schoolId, title: 'Sports day', activity_type: 'event', staff_id: staffId, student_id: opts.student_id ?? null,
    status: opts.status ?? 'published', deleted_status: opts.deleted ? 1 : 0, audience_scope: opts.student_id ? 1 : 0,
  });
  // Aimed at one student: an audience of that student, as the service writes it.
  if (opts.student_id) await AudienceTarget.create({ school_id: schoolId, entity_type: 'activity', entity_id: row.id, student_id: opts.student_id });
  return row.id;
}

export async function notice(schoolId: string, opts: { deleted?: boolean } = {}) {
  const row = await Notice.create({ school_id: schoolId, notice_title: 'Holiday on Friday', notice_type: 'holiday', notice_deleted: opts.deleted ? 1 : 0, published_at: new Date() });
  return row.id;
}

export async function writeTo(schoolId: string, parentId: number, studentId: number) {
  const row = await WriteToRequest.create({ school_id: schoolId, parent_id: parentId, student_id: studentId, type: 'query', subject: 'Bus timing', message: 'When does the bus leave?' });
  return row.id;
}

export async function diaryEntry(schoolId: string, staffId: number, target: { grade: string } | { student_id: number }, opts: { deleted?: boolean; created_at?: Date } = {}) {
  const row = await DiaryEntry.create({
    school_id: schoolId, staff_id: staffId, grade: 'grade' in target ? target.grade : null, student_id: 'student_id' in target ? target.student_id : null,
    title: 'Homework', deleted_status: opts.deleted ? 1 : 0, ...(opts.created_at ? { created_at: opts.created_at } : {}),
  });
  return row.id;
}

export async function assign(schoolId: string, staffId: number, ...studentIds: number[]) {
  await StaffStudent.bulkCreate(studentIds.map((student_id) => ({ school_id: schoolId, staff_id: staffId, student_id })));
}
