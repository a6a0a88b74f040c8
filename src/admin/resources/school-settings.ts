import type { ResourceWithOptions } from 'adminjs';
import type { AppContext } from '../../context.js';
import { School } from '../../models/index.js';
import { schoolChangesInput, updateSchoolSettings } from '../../services/schools/settings.js';
import { parseInput } from '../../services/validation.js';
import { roleAccess } from '../access.js';
import { defineResource } from './define.js';
import { schoolStatusLabels } from '../labels/codes.js';
import { menu } from './menu.js';
import { status } from './properties.js';

/** The admin's own school (section 20), over the same table as the operator's Schools. */
export function schoolSettingsResource(ctx: AppContext): ResourceWithOptions {
  return defineResource(ctx, {
    model: School, scope: { schoolColumn: 'id', resourceId: 'school_settings' }, access: roleAccess.schoolSettings,
    options: {
      navigation: menu.setup,
      listProperties: ['id', 'name', 'timezone', 'status'],
      filterProperties: ['id', 'name'],
      showProperties: ['id', 'name', 'timezone', 'status', 'created_at', 'updated_at'],
      editProperties: ['name', 'timezone'],
      properties: {
        name: { isTitle: true },
        status: status(['active', 'suspended'], schoolStatusLabels),
        timezone: { description: "An IANA time zone such as Asia/Kolkata: parents' quiet hours are its local hours" },
      },
    },
    services: {
      noun: 'School settings',
      fields: { name: 'text', timezone: 'text' },
      update: (_c, p, _id, changes) => updateSchoolSettings(p, parseInput(schoolChangesInput, changes)),
    },
  });
}
