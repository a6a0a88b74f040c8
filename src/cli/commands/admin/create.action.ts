import { z } from 'zod';
import { email, name, password, schoolIdField } from '../../../services/schemas.js';
import { iso } from '../../../db.js';
import { adminRoles, type AdminRole } from '../../../models/admin-user.js';
import { createAdminUser } from '../../../services/admins/admin-users.js';
import { assertSchool } from '../../lookups.js';
import { UsageError, type Action } from '../../runtime.js';

export interface AdminCreateFlags {
  email?: string;
  name?: string;
  password?: string;
  role?: AdminRole;
  school?: string;
}

/** Admin users of a school, and the operator's platform_admin, which belongs to no school and works only in the console. */
export const action: Action<AdminCreateFlags> = async (cli, flags) => {
  const role = await cli.need(flags.role, { flag: '--role', message: 'Role', schema: z.enum(adminRoles), choices: adminRoles });
  if (role === 'platform_admin' && flags.school !== undefined) throw new UsageError('--school: a platform_admin belongs to no school');
  const schoolId = role === 'platform_admin' ? null : await cli.need(flags.school, { flag: '--school', message: 'School id', schema: schoolIdField() });
  const adminEmail = await cli.need(flags.email, { flag: '--email', message: 'E-mail', schema: email() });
  const adminName = await cli.need(flags.name, { flag: '--name', message: 'Name', schema: name() });
  const adminPassword = await cli.need(flags.password, { flag: '--password', message: 'Password (8 to 128 characters)', schema: password(), secret: true });

  await cli.context();
  if (schoolId !== null) await assertSchool(schoolId);
  const admin = await createAdminUser({ school_id: schoolId, name: adminName, email: adminEmail, password: adminPassword, role });
  return {
    data: { ...admin, created_at: iso(admin.created_at) },
    lines: [`Created ${admin.role} ${admin.email} (id ${admin.id})${admin.school_id ? ` in ${admin.school_id}` : ', for the admin console'}.`],
  };
};
