import type { Model, ModelStatic, WhereOptions } from 'sequelize';
import type { Principal } from '../../context.js';
import { fieldError, forbidden, notFound } from '../../errors.js';
import { Staff } from '../../models/index.js';

/**
 * A record of the caller's school with this id (and `where`: not deleted, the caller's own), else 404
 * naming `what`. Updates and actions ask it before their body is judged, so an unknown or another
 * school's id is 404 whatever was sent; the caller's role is checked before it, as the update does.
 */
export async function assertInSchool(principal: Principal, model: ModelStatic<Model>, what: string, id: number, where: WhereOptions = {}): Promise<void> {
  const row = await model.findOne({ where: { ...where, id, school_id: principal.schoolId }, attributes: ['id'], raw: true });
  if (!row) throw notFound(what);
}

/**
 * The staff member who authors a post: staff author their own (another `staff_id`: 403); an admin
 * (console, command line) names one of the school's (`why` says why one is required; unknown: 404).
 */
export async function authorOf(principal: Principal, staffId: number | undefined, why: string): Promise<number> {
  if (principal.type === 'staff') {
    if (staffId !== undefined && staffId !== principal.userId) throw forbidden('staff_id must be your own id');
    return principal.userId;
  }
  if (staffId === undefined) throw fieldError('staff_id', `is required: ${why}`);
  const staff = await Staff.findOne({ where: { id: staffId, school_id: principal.schoolId }, attributes: ['id'], raw: true });
  if (!staff) throw notFound('Staff member');
  return staffId;
}
