import { staffColumns } from './staff-import.js';
import { studentColumns } from './students-import.js';

const cell = (v: string) => (/[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
const file = (columns: readonly string[], rows: string[][]) => [columns, ...rows].map((r) => r.map(cell).join(',')).join('\n') + '\n';

/**
 * The school's own import files with a header and two example rows, as docs/templates holds them
 * and the console's Import action offers them (a test keeps the two the same).
 */
export const importTemplates = {
  students: file(studentColumns, [
    ['1001', 'Asha Rao', 'female', '5', '2016-04-12', 'B+', '9876543210', 'Ravi Rao', 'Meena Rao', 'ravi.rao@example.com', '12 Lake Road, Flat 4', 'Pune', '411001', 'Bus 4;Football'],
    ['1002', 'Kiran Rao', 'male', '3', '2018-09-30', '', '9876543210', 'Ravi Rao', 'Meena Rao', '', '12 Lake Road, Flat 4', 'Pune', '411001', 'Bus 4'],
  ]),
  staff: file(staffColumns, [
    ['Maya Iyer', 'Class Teacher', '9000000101', 'maya.iyer@example.com', '1001'],
    ['Arun Nair', 'Subject Teacher', '9000000102', '', '1001;1002'],
  ]),
} as const;
