import { migrate } from '../../../db.js';
import type { Action } from '../../runtime.js';

/** Brings the schema up to date; without DATABASE_URL it creates the SQLite database when there is none, saying where. */
export const action: Action<object> = async (cli) => {
  const ctx = await cli.context({ migrate: false, createDatabase: true });
  const applied = await migrate(ctx.db.sequelize);
  const created = cli.createdDatabase;
  return {
    data: { applied, ...(created ? { created_database: created } : {}) },
    lines: [
      ...(created ? [`Created the database at ${created}.`] : []),
      ...(applied.length ? [`Applied ${applied.length} migration(s):`, ...applied.map((m) => `  ${m}`)] : ['The schema is up to date.']),
    ],
  };
};
