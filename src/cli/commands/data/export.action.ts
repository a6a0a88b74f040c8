import { id, schoolIdField } from '../../../services/schemas.js';
import { operatorPrincipal } from '../../../services/access/guards.js';
import { exportStudent } from '../../../services/privacy/export.js';
import { writeOut, type Action } from '../../runtime.js';
import { assertSchool } from '../../lookups.js';

export interface DataExportFlags {
  school?: string;
  studentId?: string;
  out?: string;
}

/** The document goes to the file, or to stdout as the result itself. */
export const dataExportAction: Action<DataExportFlags> = async (cli, flags) => {
  const schoolId = await cli.need(flags.school, { flag: '--school', message: 'School id', schema: schoolIdField() });
  const studentId = await cli.need(flags.studentId, { flag: '--student-id', message: 'Student id', schema: id() });
  await cli.context();
  await assertSchool(schoolId);
  const document = await exportStudent(operatorPrincipal(schoolId), studentId);
  const text = JSON.stringify(document, null, 2) + '\n';
  if (!flags.out) {
    process.stdout.write(text);
    return { data: document, lines: [], streamed: true };
  }
  await writeOut(flags.out, text);
  return { data: { file: flags.out }, lines: [`The data of student ${studentId} of ${schoolId} written to ${flags.out}`] };
};
