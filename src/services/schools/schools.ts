import type { AppContext } from '../../context.js';
import { conflict, forbidden, notFound } from '../../errors.js';
import { AdminUser, School } from '../../models/index.js';
import { seedSchoolBase } from '../../../seeders/base.js';
import { hashSecretValue } from '../auth/passwords.js';
import { endSchoolSessions } from '../auth/sessions.js';

export const SCHOOL_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{1,63}$/;

export interface NewSchool {
  school_id: string;
  school_name?: string;
  admin: { name: string; email: string; password: string };
}

/** A school with its grades and designations and its first super_admin, all or nothing. */
export async function createSchool(ctx: AppContext, input: NewSchool): Promise<{ school: School; admin: AdminUser }> {
  const passwordHash = await hashSecretValue(input.admin.password);
  const email = input.admin.email.trim().toLowerCase();
  return ctx.db.sequelize.transaction(async (transaction) => {
    if (await School.findByPk(input.school_id, { transaction })) throw conflict(`School ${input.school_id} already exists`, [{ field: 'school_id', message: 'already exists' }]);
    if (await AdminUser.findOne({ where: { email }, transaction })) throw conflict('An admin user with this email already exists', [{ field: 'email', message: 'already exists' }]);
    const school = await School.create({ id: input.school_id, name: input.school_name?.trim() || input.school_id }, { transaction });
    await seedSchoolBase(school.id, transaction);
    const admin = await AdminUser.create(
      { school_id: school.id, name: input.admin.name, email, password_hash: passwordHash, role: 'super_admin' },
      { transaction },
    );
    return { school, admin };
  });
}

export async function signup(ctx: AppContext, input: NewSchool) {
  if (!ctx.config.signupEnabled) throw forbidden('Public school registration is turned off');
  const { school, admin } = await createSchool(ctx, input);
  return { user_id: admin.id, school_id: school.id };
}

export async function listSchools() {
  return School.findAll({ order: [['id', 'ASC']], raw: true });
}

/** Suspending a school ends every session of it at once; its users then get 403 at login and on every call. */
export async function setSchoolStatus(ctx: AppContext, schoolId: string, status: 'active' | 'suspended') {
  const school = await School.findByPk(schoolId);
  if (!school) throw notFound('School');
  await school.update({ status });
  const ended = status === 'suspended' ? await endSchoolSessions(ctx, schoolId) : 0;
  return { school_id: school.id, status, sessions_ended: ended };
}
