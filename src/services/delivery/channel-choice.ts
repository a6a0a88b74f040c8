import { Op, type Transaction } from 'sequelize';
import type { AppContext } from '../../context.js';
import { NotificationPreference, Parent, School, Session } from '../../models/index.js';
import type { NotificationCategory } from '../../models/notification-preference.js';
import { enqueue, type OutboxItem } from '../../push/outbox.js';
import { e164 } from '../../push/phone.js';
import { quietUntil } from '../../push/quiet-hours.js';
import { chunks } from '../batches.js';
import { claimSms } from './sms-budget.js';

/** What a family is told about: a post's publication, a reminder of it, or a staff reply to their request. */
export interface FamilyNews {
  event: 'activity_published' | 'notice_published' | 'reminder' | 'write_to_reply';
  entity_type: 'activity' | 'noticeboard' | 'write_to';
  entity_id: number;
  /** As a push shows it; an SMS or an e-mail is composed from the item itself when it is sent. */
  title: string;
  body: string;
  /** An urgent notice: every channel the parent has, past their categories and quiet hours. */
  urgent?: boolean;
  /** A staff reply's id: its web page shows that reply. */
  reply_id?: number;
}

/** The preference that governs a notification to a parent, by what it is about. */
const categoryOf: Record<FamilyNews['entity_type'], NotificationCategory> = { activity: 'activities', noticeboard: 'notices', write_to: 'write_to' };

export const NO_CHANNEL = 'no channel';
export const SMS_LIMIT_REACHED = 'sms monthly limit';
export const INVALID_PHONE = 'invalid phone number';

interface SchoolFacts {
  id: string;
  timezone: string;
  country: string;
  limit: number;
}

interface Family {
  id: number;
  phone: string;
  /** A verified address, or null. */
  email: string | null;
  devices: Array<{ session_id: number; token: string }>;
  preference: Pick<NotificationPreference, NotificationCategory | 'channel_push' | 'channel_email' | 'channel_sms' | 'quiet_start' | 'quiet_end'> | undefined;
}

/** The parents of a batch with what reaching them needs: their phone, verified e-mail, devices and preferences, in three reads. */
async function families(schoolId: string, parentIds: number[], transaction: Transaction | undefined): Promise<Family[]> {
  const [parents, preferences, sessions] = await Promise.all([
    Parent.findAll({ where: { school_id: schoolId, id: { [Op.in]: parentIds } }, attributes: ['id', 'phone_no', 'email', 'unverified_email'], raw: true, transaction }),
    NotificationPreference.findAll({ where: { school_id: schoolId, parent_id: { [Op.in]: parentIds } }, raw: true, transaction }),
    Session.findAll({
      where: { school_id: schoolId, user_type: 'parent', user_id: { [Op.in]: parentIds }, active: true, expires_at: { [Op.gt]: new Date() }, fcm_token: { [Op.ne]: null } },
      attributes: ['id', 'user_id', 'fcm_token'], order: [['id', 'DESC']], raw: true, transaction,
    }),
  ]);
  const byParent = new Map(preferences.map((p) => [Number(p.parent_id), p]));
  const devices = new Map<number, Family['devices']>();
  for (const s of sessions) {
    const list = devices.get(Number(s.user_id)) ?? [];
    // A token seen on two sessions of one parent is one device.
    if (s.fcm_token && !list.some((d) => d.token === s.fcm_token)) list.push({ session_id: Number(s.id), token: s.fcm_token });
    devices.set(Number(s.user_id), list);
  }
  const order = new Map(parentIds.map((id, i) => [id, i]));
  return parents
    .map((p) => ({
      id: Number(p.id), phone: p.phone_no, email: p.email && p.email !== p.unverified_email ? p.email : null,
      devices: devices.get(Number(p.id)) ?? [], preference: byParent.get(Number(p.id)),
    }))
    .sort((a, b) => order.get(a.id)! - order.get(b.id)!);
}

const on = (value: unknown) => value === undefined || value === null || Boolean(Number(value));

/**
 * Who gets what, decided once per family and item as the records are written (CONTRACT section 24):
 * nothing when the item's category is off (one `skipped` record naming the preference); else a push
 * to each device, else one e-mail to a verified address, else one SMS, each only while that channel
 * is on; else one `skipped` record, `no channel`. An urgent notice goes by every channel on, past the
 * categories and the quiet hours; other records fall in the quiet hours are held until they end.
 * SMS come out of the school's monthly limit (a `skipped` record past it). A phone libphonenumber
 * finds invalid fails its record at once; as an `sms` record written it counts towards the limit
 * all the same (CONTRACT section 24 leaves out only PIN set-up links, test messages and skipped ones).
 */
async function batchItems(ctx: AppContext, school: SchoolFacts, parentIds: number[], news: FamilyNews, now: Date, transaction: Transaction | undefined): Promise<OutboxItem[]> {
  const category = categoryOf[news.entity_type];
  const base = {
    school_id: school.id, event: news.event, entity_type: news.entity_type, entity_id: news.entity_id, target_type: 'parent' as const,
    title: news.title, body: news.body,
  };
  const extra = news.reply_id ? { reply_id: String(news.reply_id) } : undefined;
  const items: OutboxItem[] = [];
  const texts: OutboxItem[] = [];
  for (const family of await families(school.id, parentIds, transaction)) {
    const p = family.preference;
    const target = { ...base, target_id: family.id };
    if (!news.urgent && !on(p?.[category])) {
      items.push({ ...target, channel: 'push', status: 'skipped', last_error: `not sent: the parent turned off ${category} notifications` });
      continue;
    }
    const held = !news.urgent && p?.quiet_start && p.quiet_end ? quietUntil(now, school.timezone, { start: p.quiet_start, end: p.quiet_end }) : null;
    const timing = held ? { deliver_after: held } : {};
    const pushes = on(p?.channel_push) ? family.devices.map((d): OutboxItem => ({ ...target, ...timing, channel: 'push', session_id: d.session_id, address: d.token })) : [];
    const email: OutboxItem[] = family.email && on(p?.channel_email) ? [{ ...target, ...timing, channel: 'email', address: family.email, extra }] : [];
    // The phone is read (libphonenumber, the costliest step of a large fan-out) only for a family an SMS goes to.
    const texted = news.urgent || (pushes.length === 0 && email.length === 0);
    const phone = texted && on(p?.channel_sms) ? e164(family.phone, school.country) : undefined;
    const sms: OutboxItem[] = phone === undefined ? []
      : phone === null ? [{ ...target, channel: 'sms', address: family.phone, extra, status: 'failed', last_error: INVALID_PHONE }]
      : [{ ...target, ...timing, channel: 'sms', address: phone, extra }];
    const chosen = news.urgent ? [...pushes, ...email, ...sms] : pushes.length ? pushes : email.length ? email : sms;
    if (chosen.length === 0) items.push({ ...target, channel: 'push', status: 'skipped', last_error: NO_CHANNEL });
    for (const item of chosen) {
      items.push(item);
      if (item.channel === 'sms') texts.push(item);
    }
  }
  const granted = await claimSmsIn(ctx, school, texts.length, now, transaction);
  for (const item of texts.slice(granted)) Object.assign(item, { status: 'skipped', last_error: SMS_LIMIT_REACHED, deliver_after: null });
  return items;
}

async function claimSmsIn(ctx: AppContext, school: SchoolFacts, wanted: number, now: Date, transaction: Transaction | undefined): Promise<number> {
  if (wanted === 0) return 0;
  if (transaction) return claimSms(ctx, school, wanted, now, transaction);
  return ctx.db.sequelize.transaction((t) => claimSms(ctx, school, wanted, now, t));
}

async function schoolFacts(ctx: AppContext, schoolId: string, transaction: Transaction | undefined): Promise<SchoolFacts> {
  const school = await School.findByPk(schoolId, { attributes: ['id', 'timezone', 'country', 'sms_monthly_limit'], raw: true, transaction });
  return {
    id: schoolId, timezone: school?.timezone ?? 'UTC', country: school?.country ?? ctx.config.smsDefaultCountry, limit: Number(school?.sms_monthly_limit ?? 0),
  };
}

/**
 * Tells families about something, each by its channel (see batchItems), in the caller's transaction:
 * the event and its records commit together. Returns the ids of the records written, of every
 * channel and status (a reminder undoes itself when none of them would reach anyone).
 */
export async function notifyFamilies(ctx: AppContext, schoolId: string, parentIds: number[], news: FamilyNews, transaction: Transaction): Promise<number[]> {
  const unique = [...new Set(parentIds)];
  if (unique.length === 0) return [];
  const school = await schoolFacts(ctx, schoolId, transaction);
  const now = new Date();
  const written: number[] = [];
  for (const batch of chunks(unique)) written.push(...(await enqueue(await batchItems(ctx, school, batch, news, now, transaction), transaction)));
  return written;
}
