import type { BaseRecord } from 'adminjs';
import type { Principal } from '../../context.js';
import { generatePin } from '../../services/auth/passwords.js';
import type { RoleAccess } from '../access.js';
import { formAction } from '../record-actions.js';

interface PinReset {
  /** Whose PIN it is, as the page names them. */
  owner: (record: BaseRecord) => string;
  /** Who is signed out, said before the admin resets. */
  intro: string;
  appliesTo?: (record: BaseRecord) => boolean;
  reset: (principal: Principal, record: BaseRecord, pin: string) => Promise<unknown>;
}

/**
 * Reset PIN (a staff member's, a parent's, a student's parent's): the PIN the admin types, or six
 * digits made up and shown once as a one-time secret. The service ends the account's sessions.
 */
export function pinResetAction(access: RoleAccess, spec: PinReset) {
  return formAction(access, {
    icon: 'Key', variant: 'danger', allowed: () => true, appliesTo: spec.appliesTo,
    intro: spec.intro,
    button: 'Reset PIN',
    fields: [{ name: 'pin', label: 'New PIN (optional)', hint: '4 to 8 digits. Leave it empty and the console makes one up and shows it once.', inputMode: 'numeric' }],
    perform: async (principal, record, input) => {
      const chosen = input.pin;
      const pin = chosen || generatePin();
      await spec.reset(principal, record, pin);
      const owner = spec.owner(record);
      if (chosen) return { message: `PIN changed for ${owner}; they are signed out of every device.` };
      return { message: `PIN changed for ${owner}; they are signed out of every device.`, secret: { label: `New PIN for ${owner}`, value: pin } };
    },
  });
}
