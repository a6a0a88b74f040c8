import { z } from 'zod';
import { studentStatuses } from '../../models/student.js';
import { timestamp } from '../../services/schemas.js';

/** The response shapes of the student, grade and admission routes. */
export const addressView = z.object({ address_type: z.string(), address: z.string(), city: z.string().nullable(), pincode: z.number().nullable() });

export const studentView = z.object({
  id: z.number(),
  student_full_name: z.string(),
  gender: z.string().nullable(),
  grade: z.string(),
  date_of_birth: z.string().nullable().describe('YYYY-MM-DD'),
  blood_group: z.string().nullable(),
  phone_no: z.string().nullable(),
  roll_no: z.string(),
  status: z.enum(studentStatuses),
  parent_id: z.number().nullable(),
  created_at: timestamp(),
  updated_at: timestamp(),
});

/** What staff and parents see of a student. */
export const studentSummary = z.object({
  id: z.number(),
  student_full_name: z.string(),
  roll_no: z.string(),
  grade: z.string(),
  gender: z.string().nullable(),
  date_of_birth: z.string().nullable(),
  blood_group: z.string().nullable(),
  status: z.enum(studentStatuses),
});

export const pinSetupView = z.object({ url: z.string(), expires_at: timestamp() });

export const gradeView = z.object({ id: z.number(), name: z.string(), class_teacher_id: z.number().nullable(), sort_order: z.number() });
