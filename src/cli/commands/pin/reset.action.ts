import { z } from 'zod';
import { phone, pin, schoolIdField } from '../../../services/schemas.js';
import { notFound } from '../../../errors.js';
import { Staff } from '../../../models/index.js';
import { pinAccountTypes } from '../../../models/session.js';
import { operatorPrincipal } from '../../../services/access/guards.js';
import { findParentByPhone, setParentPin } from '../../../services/parents/parents.js';
import { resetStaffPin } from '../../../services/staff/staff.js';
import { assertSchool } from '../../lookups.js';
import { generatePin } from '../../../services/auth/passwords.js';
import type { Action } from '../../runtime.js';

export interface PinResetFlags {
  school?: string;
  type?: (typeof pinAccountTypes)[number];
  phone?: string;
  pin?: string;
}

/** Sets a parent's or staff member's PIN; the services end every session of that account. */
export const action: Action<PinResetFlags> = async (cli, flags) => {
  const schoolId = await cli.need(flags.school, { flag: '--school', message: 'School id', schema: schoolIdField() });
  const type = await cli.need(flags.type, { flag: '--type', message: 'Account type', schema: z.enum(pinAccountTypes), choices: pinAccountTypes });
  const phoneNo = await cli.need(flags.phone, { flag: '--phone', message: 'Phone number', schema: phone() });
  const chosen = cli.optional(flags.pin, { flag: '--pin', schema: pin() });
  const newPin = chosen ?? generatePin();

  const ctx = await cli.context();
  await assertSchool(schoolId);
  let accountId: number;
  if (type === 'parent') {
    accountId = (await findParentByPhone(schoolId, phoneNo)).id;
    await setParentPin(ctx, schoolId, accountId, newPin);
  } else {
    const staff = await Staff.findOne({ where: { school_id: schoolId, phone_no: phoneNo }, attributes: ['id'] });
    if (!staff) throw notFound('Staff member');
    accountId = staff.id;
    await resetStaffPin(ctx, operatorPrincipal(schoolId), accountId, newPin);
  }
  return {
    data: { school_id: schoolId, type, id: accountId, phone_no: phoneNo, ...(chosen === undefined ? { pin: newPin } : {}) },
    lines: [
      `PIN set for ${type} ${phoneNo} (id ${accountId}) in ${schoolId}; every session of that account has ended.`,
      ...(chosen === undefined ? [`Generated PIN (shown once): ${newPin}`] : []),
    ],
  };
};
