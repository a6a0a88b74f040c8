import { notFound } from '../errors.js';
import { School } from '../models/index.js';

/** The school a command names must exist: 404 (exit 1) before anything is done for it. */
export async function assertSchool(schoolId: string): Promise<void> {
  if (!(await School.findByPk(schoolId, { attributes: ['id'] }))) throw notFound(`School ${schoolId}`);
}
