import { z } from 'zod';
import { id, schoolIdField } from '../../../services/schemas.js';
import { notFound } from '../../../errors.js';
import { AdminUser, Parent, Staff } from '../../../models/index.js';
import { userTypes, type UserType } from '../../../models/session.js';
import { endSchoolSessions, endUserSessions } from '../../../services/auth/sessions.js';
import { assertSchool } from '../../lookups.js';
import type { Action } from '../../runtime.js';

export interface SessionsRevokeFlags {
  school?: string;
  type?: UserType;
  userId?: string;
  all?: boolean;
}

/** The account must be of that school: another school's id answers as not found, as everywhere else. */
async function assertAccount(schoolId: string, type: UserType, userId: number): Promise<void> {
  const where = { id: userId, school_id: schoolId };
  const found =
    type === 'parent' ? await Parent.count({ where })
    : type === 'staff' ? await Staff.count({ where })
    : await AdminUser.count({ where });
  if (found === 0) throw notFound(type === 'staff' ? 'Staff member' : type === 'admin' ? 'Admin user' : 'Parent');
}

export const action: Action<SessionsRevokeFlags> = async (cli, flags) => {
  const schoolId = await cli.need(flags.school, { flag: '--school', message: 'School id', schema: schoolIdField() });
  if (flags.all) {
    await cli.confirm(`End every session of ${schoolId}?`);
    const ctx = await cli.context();
    await assertSchool(schoolId);
    const ended = await endSchoolSessions(ctx, schoolId);
    return { data: { school_id: schoolId, ended }, lines: [`Ended ${ended} session(s) of ${schoolId}.`] };
  }
  const type = await cli.need(flags.type, { flag: '--type (or --all)', message: 'Account type', schema: z.enum(userTypes), choices: userTypes });
  const userId = await cli.need(flags.userId, { flag: '--user-id (or --all)', message: 'Account id', schema: id() });
  const ctx = await cli.context();
  await assertSchool(schoolId);
  await assertAccount(schoolId, type, userId);
  const ended = await endUserSessions(ctx, schoolId, type, userId);
  return {
    data: { school_id: schoolId, type, user_id: userId, ended },
    lines: [`Ended ${ended} session(s) of ${type} ${userId} in ${schoolId}.`],
  };
};
