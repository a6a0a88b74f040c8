import { schoolIdField } from '../../../services/schemas.js';
import { seedSchoolBase } from '../../../../seeders/base.js';
import { seedDemo } from '../../../../seeders/demo.js';
import { assertSchool } from '../../lookups.js';
import type { Action } from '../../runtime.js';

export interface DbSeedFlags {
  school?: string;
  demo?: boolean;
}

/** The seeders of an existing school; each leaves rows that exist as they are, so running it again is harmless. */
export const action: Action<DbSeedFlags> = async (cli, flags) => {
  const schoolId = await cli.need(flags.school, { flag: '--school', message: 'School id', schema: schoolIdField() });
  const ctx = await cli.context();
  await assertSchool(schoolId);
  if (!flags.demo) {
    await seedSchoolBase(schoolId);
    return { data: { school_id: schoolId, demo: false }, lines: [`Seeded the default grades and designations of ${schoolId}.`] };
  }
  const { credentials, counts } = await seedDemo(ctx, schoolId);
  return {
    data: { school_id: schoolId, demo: true, credentials, counts },
    lines: [
      `Seeded ${schoolId} with its base data and the demo data. The school now has:`,
      ...Object.entries(counts).map(([what, n]) => `  ${what}: ${n}`),
      'Demo sign-ins:',
      `  admin console and web app (super_admin): ${credentials.admin.email} / ${credentials.admin.password}`,
      `  admin console and web app (admin): ${credentials.office.email} / ${credentials.office.password}`,
      `  admin console and web app (it_contact): ${credentials.itContact.email} / ${credentials.itContact.password}`,
      `  teachers app (class teacher): phone ${credentials.teacher.phone_no}, PIN ${credentials.teacher.pin}, school ${schoolId}`,
      `  teachers app (principal): phone ${credentials.principal.phone_no}, PIN ${credentials.principal.pin}, school ${schoolId}`,
      `  parent app (two children): phone ${credentials.parent.phone_no}, PIN ${credentials.parent.pin}`,
    ],
  };
};
