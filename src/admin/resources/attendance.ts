import type { ResourceWithOptions } from 'adminjs';
import type { AppContext } from '../../context.js';
import { Attendance } from '../../models/index.js';
import { attendanceStatuses } from '../../models/attendance.js';
import { roleAccess } from '../access.js';
import { defineResource } from './define.js';
import { menu } from '../labels/menu.js';
import { attendanceStatusLabels } from '../labels/codes.js';
import { ref, status } from './properties.js';

export function attendanceResource(ctx: AppContext): ResourceWithOptions {
  return defineResource(ctx, {
    model: Attendance, scope: { schoolColumn: 'school_id' }, access: roleAccess.readOnly,
    options: {
      navigation: menu.classroom,
      sort: { sortBy: 'date', direction: 'desc' },
      listProperties: ['date', 'student_id', 'status', 'marked_by_staff_id'],
      filterProperties: ['date', 'student_id', 'status', 'marked_by_staff_id'],
      showProperties: ['school_id', 'id', 'date', 'student_id', 'status', 'marked_by_staff_id', 'created_at', 'updated_at'],
      properties: {
        status: status(attendanceStatuses, attendanceStatusLabels),
        student_id: ref('students'),
        marked_by_staff_id: ref('staff'),
      },
    },
    services: {},
  });
}
