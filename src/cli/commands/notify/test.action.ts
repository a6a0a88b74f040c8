import { z } from 'zod';
import { AppError, type FieldError } from '../../../errors.js';
import { schoolIdField } from '../../../services/schemas.js';
import { closePushProvider } from '../../../push/providers.js';
import { operatorPrincipal } from '../../../services/access/guards.js';
import { sendTestMessage } from '../../../services/diagnostics/diagnostics.js';
import { assertSchool } from '../../lookups.js';
import { UsageError, type Action } from '../../runtime.js';

export interface NotifyTestFlags {
  school?: string;
  channel?: string;
  to?: string;
}

const channels = ['sms', 'email'] as const;

/** A test SMS or e-mail, sent at once: exit 0 when the provider accepted it, 1 (its error printed) when it did not. */
export const action: Action<NotifyTestFlags> = async (cli, flags) => {
  const schoolId = await cli.need(flags.school, { flag: '--school', message: 'School id', schema: schoolIdField() });
  const channel = await cli.need(flags.channel, { flag: '--channel', message: 'Channel', schema: z.enum(channels), choices: channels });
  const to = await cli.need(flags.to, {
    flag: '--to', message: channel === 'sms' ? 'Phone number' : 'E-mail address', schema: z.string().trim().min(1).max(254),
  });

  const ctx = await cli.context();
  await assertSchool(schoolId);
  let result;
  try {
    result = await sendTestMessage(ctx, operatorPrincipal(schoolId), { channel, to });
  } catch (err) {
    // Whether --to is a phone or an address the service decides (a phone is read with the school's country): still a bad flag.
    const bad = err instanceof AppError && Array.isArray(err.details) ? (err.details as FieldError[]).find((d) => d.field === 'to') : undefined;
    if (bad) throw new UsageError(`Invalid --to: ${bad.message}`);
    throw err;
  } finally {
    await closePushProvider(ctx);
  }
  return {
    data: result,
    lines: [`${result.ok ? 'Accepted' : 'Refused'} by ${result.provider}: ${channel} to ${result.to}${result.error ? ` (${result.error})` : ''}.`],
    refused: result.ok ? undefined : `The ${result.provider} provider refused the message: ${result.error}`,
  };
};
