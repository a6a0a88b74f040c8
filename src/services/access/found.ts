import type { Model, ModelStatic, WhereOptions } from 'sequelize';
import type { Principal } from '../../context.js';
import { notFound } from '../../errors.js';

/**
 * A record of the caller's school with this id (and `where`: not deleted, the caller's own), else 404
 * naming `what`. Updates and actions ask it before their body is judged, so an unknown or another
 * school's id is 404 whatever was sent; the caller's role is checked before it, as the update does.
 */
export async function assertInSchool(principal: Principal, model: ModelStatic<Model>, what: string, id: number, where: WhereOptions = {}): Promise<void> {
  const row = await model.findOne({ where: { ...where, id, school_id: principal.schoolId }, attributes: ['id'], raw: true });
  if (!row) throw notFound(what);
}
