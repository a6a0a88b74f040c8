import type { ResourceWithOptions } from 'adminjs';
import type { AppContext } from '../../context.js';
import { School } from '../../models/index.js';
import { schoolChangesInput, storageUsedMb, updateSchoolSettings } from '../../services/schools/settings.js';
import { smsUsedThisMonth } from '../../services/delivery/sms-budget.js';
import { parseInput } from '../../services/validation.js';
import { roleAccess } from '../access.js';
import type { Enricher } from '../scoped-resource.js';
import { defineResource } from './define.js';
import { schoolStatusLabels } from '../labels/codes.js';
import { menu } from '../labels/menu.js';
import { status } from './properties.js';

/** What the school's attachments hold, in MiB as the API shows it (the byte count is the services' bookkeeping). */
const storageUsed: Enricher = async (rows) => {
  for (const row of rows) {
    row.storage_used_mb = storageUsedMb(row.storage_used_bytes);
    delete row.storage_used_bytes;
  }
};

/** The admin's own school (section 20), over the same table as the operator's Schools. */
export function schoolSettingsResource(ctx: AppContext): ResourceWithOptions {
  /** The country national phones are read with (the default until the school sets one), and the month's SMS so far, as the API shows them. */
  const sms: Enricher = async (rows) => {
    for (const row of rows) {
      row.country ??= ctx.config.smsDefaultCountry;
      row.sms_used_this_month = await smsUsedThisMonth(ctx, { id: String(row.id), timezone: String(row.timezone) });
    }
  };
  return defineResource(ctx, {
    model: School, scope: { schoolColumn: 'id', resourceId: 'school_settings', enrich: [storageUsed, sms] }, access: roleAccess.schoolSettings,
    options: {
      navigation: menu.setup,
      listProperties: ['id', 'name', 'timezone', 'status'],
      filterProperties: ['id', 'name'],
      showProperties: [
        'id', 'name', 'timezone', 'status', 'storage_limit_mb', 'storage_used_mb', 'country', 'sms_monthly_limit', 'sms_used_this_month', 'created_at', 'updated_at',
      ],
      editProperties: ['name', 'timezone', 'storage_limit_mb', 'country', 'sms_monthly_limit'],
      properties: {
        name: { isTitle: true },
        storage_limit_mb: { type: 'number', description: 'What the school\'s photos and files may hold, in MiB. Set below what they hold, nothing is deleted and new uploads are refused.' },
        storage_used_mb: { type: 'number', isVisible: { list: false, filter: false, show: true, edit: false } },
        storage_used_bytes: { isVisible: false },
        status: status(['active', 'suspended'], schoolStatusLabels),
        timezone: { description: "An IANA time zone such as Asia/Kolkata: parents' quiet hours are its local hours" },
        country: { description: 'A two-letter country code such as IN or US: phone numbers without a leading + are read as numbers of this country when an SMS is sent' },
        sms_monthly_limit: { type: 'number', description: 'SMS the school may send each calendar month. Past it, an SMS is not sent and is recorded as skipped; PIN set-up links always go.' },
        sms_used_this_month: { type: 'number', isVisible: { list: false, filter: false, show: true, edit: false } },
      },
    },
    services: {
      fields: { name: 'text', timezone: 'text', storage_limit_mb: 'number', country: 'text', sms_monthly_limit: 'number' },
      update: (c, p, _id, changes) => updateSchoolSettings(c, p, parseInput(schoolChangesInput, changes)),
    },
  });
}
