import { z } from 'zod';
import type { AppContext, Principal } from '../../context.js';
import { AppError, forbidden, type FieldError } from '../../errors.js';
import { requireSchoolAdmin } from '../access/guards.js';
import { admissionInput, enrolByOffice, type PinSetupLink } from '../admission/admission.js';
import { parentFields } from '../parents/parents.js';
import { schoolIdField } from '../schemas.js';
import { addressInput } from '../staff/staff.js';
import { parseInput } from '../validation.js';
import { rollNoInput, studentFields } from './students.js';

/** The states a student the office adds may start in: at school already, or (as an applicant) registered. */
export const newStudentStatuses = ['active', 'registered'] as const;

/** The admission form's body, its school optional (the caller's) and the student's starting status. */
export const newStudentInput = admissionInput.extend({
  school_id: schoolIdField().optional().describe("The caller's school; another school's answers 403"),
  student: admissionInput.shape.student.extend({
    status: z.enum(newStudentStatuses).default('active').describe('active (default) or registered'),
  }),
});
export type NewStudent = z.input<typeof newStudentInput>;

/** One student as the students CSV of the roster import lays it out (its groups aside), with its starting status: the console's New form. */
export const studentFormInput = z.object({
  student_full_name: studentFields.student_full_name,
  roll_no: rollNoInput().nullable().optional(),
  gender: studentFields.gender,
  grade: studentFields.grade,
  date_of_birth: studentFields.date_of_birth,
  blood_group: studentFields.blood_group,
  ...parentFields,
  address: addressInput.shape.address.nullable().optional(),
  city: addressInput.shape.city,
  pincode: addressInput.shape.pincode,
  status: z.enum(newStudentStatuses).optional(),
});
export type StudentForm = z.input<typeof studentFormInput>;

export interface NewStudentResult {
  student_id: number;
  parent_id: number;
  roll_no: string;
  status: (typeof newStudentStatuses)[number];
  /** Present when the phone had no parent in the school: the new parent's one-time PIN set-up link, also sent by SMS. */
  pin_setup?: PinSetupLink;
}

/**
 * A student the school office adds with their guardian (super_admin, admin), through the
 * admission's validation and transaction: all or nothing, a taken roll number 409, a phone that has
 * a parent in the school links to them (their PIN kept), a new one creates the parent without a PIN
 * and sends the set-up link. The office is no applicant: no admission record, token or
 * `admission.submitted` event; the trail records `student.create`.
 */
export async function createStudent(ctx: AppContext, principal: Principal, raw: NewStudent): Promise<NewStudentResult> {
  requireSchoolAdmin(principal);
  const input = parseInput(newStudentInput, raw);
  if (input.school_id !== undefined && input.school_id !== principal.schoolId) throw forbidden('This token does not belong to that school');
  const { status, ...student } = input.student;
  const { student: row, parent, pin_setup } = await enrolByOffice(ctx, principal.schoolId, { ...input, student }, status);
  return { student_id: row.id, parent_id: parent.id, roll_no: row.roll_no, status, ...(pin_setup ? { pin_setup } : {}) };
}

/** `student.grade`, `parent.phone_no`, `addresses.0.city`: the form's own column names. */
const formField = (field: string) => field.replace(/^(student|parent)\./, '').replace(/^addresses\.\d+\./, '');

/**
 * createStudent from the console's New form, whose fields are the students CSV columns: a refusal
 * names the form's field (`grade`, `phone_no`, `city`), not the admission body's path.
 */
export async function createStudentFromForm(ctx: AppContext, principal: Principal, raw: StudentForm): Promise<NewStudentResult> {
  const form = parseInput(studentFormInput, raw);
  // A city or pincode without its address is refused on `address`, not dropped.
  const hasAddress = [form.address, form.city, form.pincode].some((v) => v != null);
  const addresses = hasAddress ? [{ address_type: 'current', address: form.address ?? undefined, city: form.city, pincode: form.pincode }] : [];
  try {
    return await createStudent(ctx, principal, {
      student: {
        student_full_name: form.student_full_name, roll_no: form.roll_no ?? null, gender: form.gender, grade: form.grade,
        date_of_birth: form.date_of_birth, blood_group: form.blood_group, status: form.status,
      },
      parent: { father_name: form.father_name, mother_name: form.mother_name, phone_no: form.phone_no, email: form.email },
      addresses: addresses as NewStudent['addresses'],
    });
  } catch (err) {
    if (!(err instanceof AppError) || !Array.isArray(err.details)) throw err;
    const details = (err.details as FieldError[]).map((d) => ({ ...d, field: formField(d.field) }));
    throw new AppError(err.code, err.code === 'BAD_REQUEST' ? `Invalid input: ${[...new Set(details.map((d) => d.field))].join(', ')}` : err.message, details);
  }
}
