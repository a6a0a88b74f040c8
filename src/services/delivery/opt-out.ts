import { Metadata, getCountries, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { AppContext } from '../../context.js';
import type { NotificationChannel } from '../../models/notification-preference.js';
import { e164 } from '../../push/phone.js';
import type { AuditEntry } from '../audit/audit.js';
import { channelColumn, savePreferences } from '../notifications/preferences.js';

export interface ParentRef {
  schoolId: string;
  parentId: number;
}

/**
 * Turns one channel on or off for some parents, each in the school they belong to, audited
 * `preference.update` (`channels.<name>`) when it changed: an unsubscribe link, STOP or START, and
 * Twilio's 21610. `actor` names who asked (the parent) when it was not the system.
 */
export async function setChannel(ctx: AppContext, parents: ParentRef[], channel: NotificationChannel, on: boolean, actor: 'parent' | 'system'): Promise<number> {
  let changed = 0;
  for (const p of parents) {
    const who: AuditEntry['actor'] = actor === 'parent' ? { actorType: 'parent', actorId: String(p.parentId), actorName: null } : { actorType: 'system', actorId: null, actorName: null };
    const did = await ctx.db.sequelize.transaction((t) => savePreferences(ctx, t, p, { [channelColumn(channel)]: on ? 1 : 0 }, who));
    if (did) changed++;
  }
  return changed;
}

/** Every country's international dialling prefix that is one string of digits (00, 011, 0011, 010, 810...): how a number written there starts. */
const DIALLING_PREFIXES = (() => {
  const metadata = new Metadata();
  const prefixes = new Set<string>();
  for (const country of getCountries()) {
    metadata.selectNumberingPlan(country);
    const plan = metadata.numberingPlan!;
    const prefix = /^\d+$/.test(plan.IDDPrefix()) ? plan.IDDPrefix() : plan.defaultIDDPrefix();
    if (prefix) prefixes.add(prefix);
  }
  return [...prefixes];
})();

/**
 * The parents, in every school, whose stored phone is this E.164 number when read with their
 * school's country. Phones are stored as given (digits, an optional +): every form that can name
 * the number is looked up by the phone index (international with or without +, with the trunk
 * prefix kept after the country code as in "+91 0 98765 43210", national with or without it, after
 * any country's dialling prefix), then each is checked by formatting it as sending does.
 */
export async function parentsWithPhone(ctx: AppContext, phone: string): Promise<ParentRef[]> {
  const parsed = parsePhoneNumberFromString(phone);
  if (!parsed?.isValid()) return [];
  const digits = parsed.number.slice(1);
  const trunk = parsed.formatNational().replace(/\D/g, '');
  const withTrunk = `${parsed.countryCallingCode}${trunk}`;
  const forms = [...new Set([
    parsed.number, digits, parsed.nationalNumber, trunk, `+${withTrunk}`, withTrunk,
    ...DIALLING_PREFIXES.flatMap((prefix) => [`${prefix}${digits}`, `${prefix}${withTrunk}`]),
  ])];
  const rows = await ctx.db.select<{ id: number; school_id: string; phone_no: string; country: string | null }>(
    'SELECT p.id, p.school_id, p.phone_no, s.country FROM parents p JOIN schools s ON s.id = p.school_id WHERE p.phone_no IN (:forms)', { forms },
  );
  return rows.filter((r) => e164(r.phone_no, r.country ?? ctx.config.smsDefaultCountry) === parsed.number).map((r) => ({ schoolId: r.school_id, parentId: Number(r.id) }));
}

/** Twilio refused a send because the recipient replied STOP to that sender (21610): SMS off for that phone, as STOP does. */
export async function smsRefused(ctx: AppContext, phone: string): Promise<void> {
  await setChannel(ctx, await parentsWithPhone(ctx, phone), 'sms', false, 'system');
}

const STOP_WORDS = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT']);
const START_WORDS = new Set(['START', 'UNSTOP']);

/** A text message a parent sent back: STOP (and its synonyms) turns SMS off for every parent with that phone, START on; anything else changes nothing. */
export async function inboundSms(ctx: AppContext, from: string, body: string): Promise<void> {
  const word = body.trim().toUpperCase();
  const on = START_WORDS.has(word) ? true : STOP_WORDS.has(word) ? false : null;
  if (on === null) return;
  await setChannel(ctx, await parentsWithPhone(ctx, from), 'sms', on, 'parent');
}
