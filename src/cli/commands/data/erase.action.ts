import { id, schoolIdField } from '../../../services/schemas.js';
import { eraseInput, eraseStudent } from '../../../services/privacy/erasure.js';
import type { Action } from '../../runtime.js';
import { assertSchool } from '../../lookups.js';

export interface DataEraseFlags {
  school?: string;
  studentId?: string;
  confirm?: string;
}

/** The roll number is the confirmation: asked on a terminal when --confirm is not given, and checked by the service. */
export const dataEraseAction: Action<DataEraseFlags> = async (cli, flags) => {
  const schoolId = await cli.need(flags.school, { flag: '--school', message: 'School id', schema: schoolIdField() });
  const studentId = await cli.need(flags.studentId, { flag: '--student-id', message: 'Student id', schema: id() });
  const confirm = await cli.need(flags.confirm, { flag: '--confirm', message: "The student's roll number, to confirm the erasure", schema: eraseInput.shape.confirm });
  const ctx = await cli.context();
  await assertSchool(schoolId);
  const { erased } = await eraseStudent(ctx, schoolId, studentId, confirm);
  return {
    data: { erased },
    lines: [`Erased student ${studentId} of ${schoolId}: ${erased.students} student, ${erased.parents} parent, ${erased.comments} comment(s) blanked, ${erased.addresses} address(es) deleted, ${erased.attachments} attachment(s) deleted.`],
  };
};
