import { iso } from '../../../db.js';
import { listSchools } from '../../../services/schools/schools.js';
import { table, type Action } from '../../runtime.js';

export const action: Action<object> = async (cli) => {
  await cli.context();
  const schools = (await listSchools()).map((s) => ({ id: s.id, name: s.name, status: s.status, created_at: iso(s.created_at) }));
  return {
    data: schools,
    lines: schools.length ? table(schools, ['id', 'name', 'status', 'created_at']) : ['No schools yet.'],
  };
};
