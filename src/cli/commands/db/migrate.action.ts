import { migrate } from '../../../db.js';
import type { Action } from '../../runtime.js';

export const action: Action<object> = async (cli) => {
  const ctx = await cli.context({ migrate: false });
  const applied = await migrate(ctx.db.sequelize);
  return {
    data: { applied },
    lines: applied.length ? [`Applied ${applied.length} migration(s):`, ...applied.map((m) => `  ${m}`)] : ['The schema is up to date.'],
  };
};
