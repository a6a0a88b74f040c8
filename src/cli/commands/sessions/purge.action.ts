import { z } from 'zod';
import { pruneSessions } from '../../../services/auth/sessions.js';
import type { Action } from '../../runtime.js';

/** The scheduled pruning job, run now. */
export const action: Action<{ olderThanDays?: string }> = async (cli, flags) => {
  const given = cli.optional(flags.olderThanDays, { flag: '--older-than-days', schema: z.coerce.number().int().min(1).max(3650) });
  const ctx = await cli.context();
  const days = given ?? ctx.config.sessionPruneDays;
  await cli.confirm(`Delete every session that ended, expired or went unused more than ${days} days ago?`);
  const deleted = await pruneSessions(ctx, days);
  return { data: { deleted, older_than_days: days }, lines: [`Deleted ${deleted} session(s) older than ${days} days.`] };
};
