import { z } from 'zod';
import { email, name, password, schoolIdField } from '../../../services/schemas.js';
import { createSchool } from '../../../services/schools/schools.js';
import { generatePassword, type Action } from '../../runtime.js';

export interface TenantCreateFlags {
  id?: string;
  name?: string;
  adminEmail?: string;
  /** Always given: the declaration defaults it to Administrator. */
  adminName: string;
  adminPassword?: string;
}

export const action: Action<TenantCreateFlags> = async (cli, flags) => {
  const schoolId = await cli.need(flags.id, { flag: '--id', message: 'School id', schema: schoolIdField() });
  const schoolName = await cli.need(flags.name, { flag: '--name', message: 'School name', schema: z.string().trim().min(1).max(200) });
  const adminEmail = await cli.need(flags.adminEmail, { flag: '--admin-email', message: 'Super admin e-mail', schema: email() });
  const adminName = cli.check(flags.adminName, { flag: '--admin-name', schema: name() });
  let given = flags.adminPassword;
  if (given === undefined && cli.interactive) {
    given = (await cli.ask({ message: 'Super admin password (leave empty to generate one)', secret: true, schema: password().or(z.literal('')) })) || undefined;
  }
  const adminPassword = given === undefined ? generatePassword() : cli.check(given, { flag: '--admin-password', schema: password() });

  const { school, admin } = await createSchool(await cli.context(), {
    school_id: schoolId,
    school_name: schoolName,
    admin: { name: adminName, email: adminEmail, password: adminPassword },
  });
  const generated = given === undefined;
  return {
    data: {
      school_id: school.id,
      name: school.name,
      status: school.status,
      admin: { id: admin.id, name: admin.name, email: admin.email, role: admin.role },
      ...(generated ? { admin_password: adminPassword } : {}),
    },
    lines: [
      `Created school ${school.id} (${school.name}) with its default grades and designations.`,
      `Super admin: ${admin.email}`,
      ...(generated ? [`Generated password (shown once, hand it over securely): ${adminPassword}`] : []),
    ],
  };
};
