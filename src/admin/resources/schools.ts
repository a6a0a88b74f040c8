import type { ResourceWithOptions } from 'adminjs';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { School } from '../../models/index.js';
import { email, name, password } from '../../services/schemas.js';
import { createSchool, SCHOOL_ID_PATTERN, setSchoolStatus } from '../../services/schools/schools.js';
import { parseInput } from '../../services/validation.js';
import { roleAccess } from '../access.js';
import { recordAction } from '../record-actions.js';
import { isPlatformAdmin } from '../auth.js';
import { defineResource } from './define.js';
import { menu } from '../labels/menu.js';
import { schoolStatusLabels } from '../labels/codes.js';
import { readOnly, status } from './properties.js';

const newSchoolInput = z.object({
  school_code: z.string().trim().regex(SCHOOL_ID_PATTERN, 'is not a valid school id'),
  name: z.string().trim().min(1).max(200).optional(),
  admin_name: name(),
  admin_email: email(),
  admin_password: password(),
});

const newOnly = { list: false, filter: false, show: false, edit: true };

/** Every school, for the operator: create one with its first super_admin, suspend, resume. */
export function schoolsResource(ctx: AppContext): ResourceWithOptions {
  return defineResource(ctx, {
    model: School, scope: { schoolColumn: 'id' }, access: roleAccess.schools,
    options: {
      navigation: menu.setup,
      sort: { sortBy: 'id', direction: 'asc' },
      listProperties: ['id', 'name', 'status', 'created_at'],
      filterProperties: ['id', 'name', 'status'],
      showProperties: ['id', 'name', 'status', 'created_at', 'updated_at'],
      editProperties: ['school_code', 'name', 'admin_name', 'admin_email', 'admin_password'],
      properties: {
        name: { isTitle: true },
        status: status(['active', 'suspended'], schoolStatusLabels),
        school_code: { type: 'string', isRequired: true, description: 'The school id: letters, digits, - and _', isVisible: newOnly },
        admin_name: { type: 'string', isRequired: true, description: 'Its first super_admin', isVisible: newOnly },
        admin_email: { type: 'string', isRequired: true, isVisible: newOnly },
        admin_password: { type: 'password', isRequired: true, isVisible: newOnly },
        created_at: readOnly,
      },
    },
    services: {
      fields: { school_code: 'text', name: 'text', admin_name: 'text', admin_email: 'text', admin_password: 'text' },
      createSchool: async (c, input) => {
        const v = parseInput(newSchoolInput, input);
        const { school } = await createSchool(c, { school_id: v.school_code, school_name: v.name, admin: { name: v.admin_name, email: v.admin_email, password: v.admin_password } });
        return { id: school.id };
      },
    },
    extraActions: {
      suspend: recordAction(roleAccess.schools, {
        icon: 'PauseCircle', variant: 'danger', schoolColumn: 'id', allowed: isPlatformAdmin, appliesTo: (r) => r.params.status === 'active',
        guard: 'Suspend this school? Every session of its parents, staff and admins ends at once.',
        perform: async (_p, r) => {
          const { sessions_ended } = await setSchoolStatus(ctx, String(r.id()), 'suspended');
          return { message: `School suspended; ${sessions_ended} session(s) ended` };
        },
      }),
      resume: recordAction(roleAccess.schools, {
        icon: 'PlayCircle', schoolColumn: 'id', allowed: isPlatformAdmin, appliesTo: (r) => r.params.status === 'suspended',
        perform: async (_p, r) => {
          await setSchoolStatus(ctx, String(r.id()), 'active');
          return { message: 'School resumed' };
        },
      }),
    },
  });
}
