import { DateTime } from 'luxon';
import type { AppContext } from '../../context.js';
import { iso } from '../../db.js';
import type { OutboundMessage } from '../../push/provider.js';
import { emailParts, emailSubject, headerText, smsBody } from './content.js';
import { createLinks, type NewLink } from './links.js';

/** A due record, as the worker reads it. */
export interface OutboxRow {
  id: number;
  school_id: string;
  event: string;
  channel: 'push' | 'sms' | 'email';
  entity_type: string | null;
  entity_id: number | null;
  target_type: string;
  target_id: number | null;
  session_id: number | null;
  address: string | null;
  title: string;
  body: string;
  data: string | Record<string, string> | null;
  attempts: number;
}

/** Events that tell a family about an item: their SMS and e-mails carry the item's web page. */
export const ITEM_EVENTS = new Set(['activity_published', 'notice_published', 'reminder', 'write_to_reply']);
export const PIN_SETUP_EVENT = 'admission_pin_setup';
export const VERIFICATION_EVENT = 'email_verification';
export const TEST_MESSAGE_EVENT = 'test_message';

export const dataOf = (row: Pick<OutboxRow, 'data'>): Record<string, string> => {
  const data = typeof row.data === 'string' ? (JSON.parse(row.data) as Record<string, unknown>) : (row.data ?? {});
  return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, String(v)]));
};

/** What a message says about its item, read when it is sent: the post as it is now. */
export interface ItemText {
  title: string;
  text: string;
  /** The publish date (a reply: its date), `YYYY-MM-DD` in the school's time zone. */
  date: string | null;
}

const key = (type: string, id: number) => `${type}:${id}`;

/** The items of some records, one read per kind: activities, notices, and staff replies with their thread's subject. */
async function itemTexts(ctx: AppContext, rows: OutboxRow[], zones: Map<string, string>): Promise<Map<string, ItemText>> {
  const out = new Map<string, ItemText>();
  const ids = (type: string) => [...new Set(rows.filter((r) => r.entity_type === type && r.entity_id !== null).map((r) => Number(r.entity_id)))];
  const day = (value: unknown, school: string) => {
    const at = iso(value);
    return at ? DateTime.fromISO(at, { zone: zones.get(school) ?? 'UTC' }).toFormat('yyyy-MM-dd') : null;
  };
  const activities = ids('activity');
  if (activities.length) {
    for (const a of await ctx.db.select<{ id: number; school_id: string; title: string; description: string | null; published_at: unknown }>(
      'SELECT id, school_id, title, description, published_at FROM activities WHERE id IN (:ids)', { ids: activities },
    )) out.set(key(`activity@${a.school_id}`, Number(a.id)), { title: a.title, text: a.description ?? '', date: day(a.published_at, a.school_id) });
  }
  const notices = ids('noticeboard');
  if (notices.length) {
    for (const n of await ctx.db.select<{ id: number; school_id: string; notice_title: string; notice_desc: string | null; published_at: unknown }>(
      'SELECT id, school_id, notice_title, notice_desc, published_at FROM notices WHERE id IN (:ids)', { ids: notices },
    )) out.set(key(`noticeboard@${n.school_id}`, Number(n.id)), { title: n.notice_title, text: n.notice_desc ?? '', date: day(n.published_at, n.school_id) });
  }
  const replies = [...new Set(rows.filter((r) => r.entity_type === 'write_to').map((r) => Number(dataOf(r).reply_id)).filter((id) => id > 0))];
  if (replies.length) {
    for (const r of await ctx.db.select<{ id: number; school_id: string; message: string; created_at: unknown; subject: string }>(
      `SELECT r.id, r.school_id, r.message, r.created_at, w.subject FROM write_to_replies r
        JOIN write_to_requests w ON w.id = r.write_to_id AND w.school_id = r.school_id WHERE r.id IN (:ids)`, { ids: replies },
    )) out.set(key(`reply@${r.school_id}`, Number(r.id)), { title: r.subject, text: r.message, date: day(r.created_at, r.school_id) });
  }
  return out;
}

/** The item a record is about, as it is now; a deleted one as the record remembers it. */
function itemOf(row: OutboxRow, texts: Map<string, ItemText>): ItemText {
  const found = row.entity_type === 'write_to'
    ? texts.get(key(`reply@${row.school_id}`, Number(dataOf(row).reply_id)))
    : texts.get(key(`${row.entity_type}@${row.school_id}`, Number(row.entity_id)));
  return found ?? { title: row.title, text: row.body, date: null };
}

/**
 * The messages of some claimed records. A push is the record itself. An SMS or an e-mail about an
 * item is composed from the item as it is now, with a web page link of its own (and, for an e-mail,
 * an unsubscribe link): their tokens are made here, just before sending, in one INSERT for the
 * batch, and exist afterwards only as hashes and in the message. A PIN set-up SMS is the record's
 * text, which carries its link.
 */
export async function composeMessages(ctx: AppContext, rows: OutboxRow[], now = new Date()): Promise<Map<number, OutboundMessage>> {
  const messages = new Map<number, OutboundMessage>();
  const texts = rows.filter((r) => r.channel !== 'push');
  for (const row of rows) {
    if (row.channel === 'push') messages.set(row.id, { channel: 'push', address: row.address ?? '', title: row.title, body: row.body, data: pushData(row) });
  }
  if (texts.length === 0) return messages;
  const schools = new Map(
    (await ctx.db.select<{ id: string; name: string; timezone: string }>('SELECT id, name, timezone FROM schools WHERE id IN (:ids)', { ids: [...new Set(texts.map((r) => r.school_id))] }))
      .map((s) => [s.id, s]),
  );
  const zones = new Map([...schools.values()].map((s) => [s.id, s.timezone]));
  const items = await itemTexts(ctx, texts.filter((r) => ITEM_EVENTS.has(r.event)), zones);

  const links: NewLink[] = [];
  const linkOf = new Map<string, number>();
  const want = (row: OutboxRow, link: NewLink) => {
    linkOf.set(`${row.id}:${link.kind}`, links.length);
    links.push(link);
  };
  for (const row of texts) {
    if (row.target_type !== 'parent' || row.target_id === null) continue;
    const parent = { schoolId: row.school_id, parentId: Number(row.target_id) };
    if (ITEM_EVENTS.has(row.event)) {
      const replyId = row.entity_type === 'write_to' ? Number(dataOf(row).reply_id) || null : null;
      want(row, { ...parent, kind: 'view', entityType: row.entity_type, entityId: row.entity_id, replyId });
    }
    if (row.event === VERIFICATION_EVENT) want(row, { ...parent, kind: 'verify', email: row.address });
    if (row.channel === 'email') want(row, { ...parent, kind: 'unsubscribe' });
  }
  const urls = await createLinks(ctx.config.publicAppUrl, links, now);
  const url = (row: OutboxRow, kind: NewLink['kind']) => {
    const i = linkOf.get(`${row.id}:${kind}`);
    return i === undefined ? undefined : urls[i];
  };

  for (const row of texts) {
    const school = schools.get(row.school_id)?.name ?? row.school_id;
    const data = pushData(row);
    const to = row.address ?? '';
    if (row.channel === 'sms') {
      const body = ITEM_EVENTS.has(row.event) ? smsBody(school, itemOf(row, items).title, url(row, 'view')!)
        : row.event === TEST_MESSAGE_EVENT ? `${school}: a test message from the school platform. No reply is needed.`
        : row.body;
      messages.set(row.id, { channel: 'sms', to, body, data });
      continue;
    }
    const unsubscribeUrl = url(row, 'unsubscribe');
    const content = ITEM_EVENTS.has(row.event)
      ? { ...itemOf(row, items), link: { url: url(row, 'view')!, label: 'Read it on the web' } }
      : row.event === VERIFICATION_EVENT
        ? { title: 'Confirm your e-mail address', text: `Open the link below to confirm that ${school} may send its news to this address. If you did not ask for this, ignore this e-mail.`, link: { url: url(row, 'verify')!, label: 'Confirm this address' } }
        : { title: row.event === TEST_MESSAGE_EVENT ? 'Test message' : row.title, text: row.event === TEST_MESSAGE_EVENT ? `A test message from ${school} through the school platform. No reply is needed.` : row.body };
    messages.set(row.id, {
      channel: 'email', to, fromName: headerText(school), subject: emailSubject(school, content.title), data, ...(unsubscribeUrl ? { unsubscribeUrl } : {}),
      ...emailParts({ school, title: content.title, text: content.text, ...('link' in content ? { link: content.link } : {}), ...(unsubscribeUrl ? { unsubscribeUrl } : {}) }),
    });
  }
  return messages;
}

/** The record's payload: what a push carries, and what a log line may say of any message. */
function pushData(row: OutboxRow): Record<string, string> {
  const { event, entity_type, entity_id, school_id } = dataOf(row);
  return { event: event ?? row.event, entity_type: entity_type ?? '', entity_id: entity_id ?? '', school_id: school_id ?? row.school_id };
}
