import { z } from 'zod';
import { id, schoolIdField, title } from '../../../services/schemas.js';
import { closePushProvider } from '../../../push/providers.js';
import { operatorPrincipal } from '../../../services/access/guards.js';
import { sendTestPush, type TestPushInput } from '../../../services/diagnostics/diagnostics.js';
import { assertSchool } from '../../lookups.js';
import { UsageError, type Action } from '../../runtime.js';

export interface PushTestFlags {
  school?: string;
  token?: string;
  parentId?: string;
  staffId?: string;
  title?: string;
  body?: string;
}

const targets = ['token', 'parent', 'staff'] as const;
const targetFlags = '--token, --parent-id or --staff-id';
const token = () => z.string().trim().min(1).max(512);

/** A test push sent at once, past any filtering, to a device token or to every device of a parent or staff member. */
export const action: Action<PushTestFlags> = async (cli, flags) => {
  const schoolId = await cli.need(flags.school, { flag: '--school', message: 'School id', schema: schoolIdField() });
  if ([flags.token, flags.parentId, flags.staffId].filter((v) => v !== undefined).length > 1) throw new UsageError(`Give only one of ${targetFlags}`);
  let target: Pick<TestPushInput, 'fcm_token' | 'parent_id' | 'staff_id'>;
  if (flags.token !== undefined) target = { fcm_token: cli.check(flags.token, { flag: '--token', schema: token() }) };
  else if (flags.parentId !== undefined) target = { parent_id: cli.check(flags.parentId, { flag: '--parent-id', schema: id() }) };
  else if (flags.staffId !== undefined) target = { staff_id: cli.check(flags.staffId, { flag: '--staff-id', schema: id() }) };
  else {
    const kind = await cli.need(undefined, { flag: targetFlags, message: 'Send to', schema: z.enum(targets), choices: targets });
    target =
      kind === 'token' ? { fcm_token: await cli.need(undefined, { flag: '--token', message: 'Device token', schema: token() }) }
      : kind === 'parent' ? { parent_id: await cli.need(undefined, { flag: '--parent-id', message: 'Parent id', schema: id() }) }
      : { staff_id: await cli.need(undefined, { flag: '--staff-id', message: 'Staff id', schema: id() }) };
  }
  const heading = cli.optional(flags.title, { flag: '--title', schema: title() });
  const body = cli.optional(flags.body, { flag: '--body', schema: z.string().trim().min(1).max(2000) });

  const ctx = await cli.context();
  await assertSchool(schoolId);
  let result;
  try {
    result = await sendTestPush(ctx, operatorPrincipal(schoolId), { ...target, title: heading, body });
  } finally {
    await closePushProvider(ctx);
  }
  return {
    data: result,
    lines: [
      `Sent ${result.sent}, failed ${result.failed}.`,
      ...result.results.map((r) => `  ${r.target}: ${r.ok ? 'ok' : `failed${r.error ? ` (${r.error})` : ''}`}`),
    ],
    // Nothing delivered is a failure a script must notice (exit 1); the per-target results are printed all the same.
    refused: result.sent === 0 ? 'No push was delivered' : undefined,
  };
};
