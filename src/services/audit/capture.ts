import type { BulkCreateOptions, Model, ModelStatic, Sequelize, Transaction, WhereOptions } from 'sequelize';
import { Op } from 'sequelize';
import { jsonColumnsOf } from '../../models/columns.js';
import type { AuditEntityType } from '../../models/audit-event.js';
import {
  Activity, Address, AdminUser, Admission, Attendance, AudienceTarget, CalendarFeed, Comment, DiaryEntry, Designation, Form, FormResponse, Grade, Group, GroupMember,
  Notice, Notification, NotificationPreference, Parent, Reaction, School, Session, Staff, StaffStudent, Student, Webhook, WriteToReply, WriteToRequest,
} from '../../models/index.js';
import { concealedMessage } from '../notifications/notifications.js';
import { diff, recordAudit, REDACTED, type AuditEntry, type Changes } from './audit.js';
import { currentActor } from './context.js';

type Kind = 'create' | 'update' | 'delete';
type Row = Record<string, unknown>;

interface Audited {
  entity: AuditEntityType | ((row: Row) => AuditEntityType);
  /** The entity's id; a child row (a group's member, an address) names its owner. */
  id?: (row: Row) => unknown;
  /** The action's verb where it is more than create, update or delete. */
  verb?: (kind: Kind, changes: Changes, row: Row) => string;
  /** The account whose PIN or password a row holds: a change of it by anyone else is a `pin.reset`. */
  account?: 'parent' | 'staff' | 'admin';
  /** Fields of this row that hold a secret under an ordinary name (a device token, a set-up link's text). */
  secret?: (row: Row) => readonly string[];
}

const went = (changes: Changes, field: string, test: (before: unknown, after: unknown) => boolean) => field in changes && test(changes[field]![0], changes[field]![1]);
/** A soft delete is an update of its flag from 0. */
const softDelete = (field: string) => (kind: Kind, changes: Changes) =>
  kind === 'update' && went(changes, field, (b, a) => Number(b) === 0 && Number(a) !== 0) ? 'delete' : kind;
const owned = (create: string, update: string, remove: string) => (kind: Kind) => (kind === 'create' ? create : kind === 'delete' ? remove : update);

/**
 * Every table that holds a school's data, as the audit trail names it. Bookkeeping tables are not here:
 * lock-outs, job runs, console sessions and read receipts (their services record them), and webhook
 * deliveries, each of which repeats an event already recorded.
 */
const audited = new Map<ModelStatic<Model>, Audited>([
  [School, { entity: 'school', id: (r) => r.id }],
  [AdminUser, { entity: 'admin_user', account: 'admin' }],
  [Designation, { entity: 'designation' }],
  [Grade, { entity: 'grade' }],
  [Group, { entity: 'group', verb: softDelete('deleted_key') }],
  [GroupMember, { entity: 'group', id: (r) => r.group_id, verb: owned('add_member', 'update_member', 'remove_member') }],
  [Staff, {
    entity: 'staff', account: 'staff',
    verb: (kind, c) => (kind === 'update' && went(c, 'status', (_b, a) => Number(a) === 0) ? 'archive' : kind === 'update' && went(c, 'status', (b) => Number(b) === 0) ? 'restore' : kind),
  }],
  [StaffStudent, { entity: 'staff', id: (r) => r.staff_id, verb: owned('assign', 'update_assignment', 'unassign') }],
  [Student, {
    entity: 'student',
    verb: (kind, c) => (kind === 'update' && went(c, 'status', (_b, a) => a === 'archived') ? 'archive' : kind === 'update' && went(c, 'status', (b) => b === 'archived') ? 'restore' : kind),
  }],
  [Parent, { entity: 'parent', account: 'parent' }],
  [Address, { entity: (r) => r.owner_type as AuditEntityType, id: (r) => r.owner_id, verb: owned('address_add', 'address_update', 'address_remove') }],
  [Admission, { entity: 'admission' }],
  [Activity, {
    entity: 'activity',
    verb: (kind, c) => (kind === 'update' && went(c, 'status', (_b, a) => a === 'published') ? 'publish' : softDelete('deleted_status')(kind, c)),
  }],
  [Notice, { entity: 'noticeboard', verb: softDelete('notice_deleted') }],
  [Form, { entity: 'form', verb: (kind, c) => (kind === 'update' && went(c, 'closed_at', (b, a) => b === null && a !== null) ? 'close' : kind) }],
  [FormResponse, { entity: 'form_response' }],
  [CalendarFeed, { entity: 'parent', id: (r) => r.parent_id, verb: owned('calendar_feed_create', 'calendar_feed_replace', 'calendar_feed_revoke') }],
  [AudienceTarget, { entity: (r) => r.entity_type as AuditEntityType, id: (r) => r.entity_id, verb: owned('audience_add', 'audience_update', 'audience_remove') }],
  [WriteToRequest, { entity: 'write_to', verb: (kind, c) => (kind === 'update' && went(c, 'status', (_b, a) => a === 'resolved') ? 'resolve' : kind) }],
  [WriteToReply, { entity: 'write_to', id: (r) => r.write_to_id, verb: owned('reply', 'reply_update', 'reply_delete') }],
  [Comment, { entity: 'comment', verb: softDelete('deleted_status') }],
  [Reaction, { entity: 'reaction' }],
  [DiaryEntry, { entity: 'diary', verb: softDelete('deleted_status') }],
  [Attendance, { entity: 'attendance' }],
  [Session, { entity: 'session', verb: (kind, c) => (kind === 'update' && went(c, 'active', (_b, a) => !a) ? 'revoke' : kind) }],
  [Notification, { entity: 'notification', secret: (r) => (concealedMessage.applies(r) ? ['address', ...concealedMessage.fields] : ['address']) }],
  [NotificationPreference, { entity: 'preference' }],
  [Webhook, { entity: 'webhook', verb: softDelete('deleted_status') }],
]);

const SECRET_COLUMNS = ['pin_hash', 'password_hash'];

function entryFor(spec: Audited, kind: Kind, before: Row | null, after: Row | null): AuditEntry | null {
  const row = (after ?? before)!;
  const changes = diff(before, after);
  for (const field of spec.secret?.(row) ?? []) {
    const change = changes[field];
    if (change) changes[field] = [change[0] === null ? null : REDACTED, change[1] === null ? null : REDACTED];
  }
  if (kind === 'update' && Object.keys(changes).length === 0) return null;
  const entityType = typeof spec.entity === 'function' ? spec.entity(row) : spec.entity;
  const entityId = (spec.id ?? ((r: Row) => r.id))(row);
  const schoolId = (entityType === 'school' && !('school_id' in row) ? row.id : row.school_id) as string | null;
  if (spec.account && kind === 'update' && SECRET_COLUMNS.some((c) => c in changes)) {
    const actor = currentActor();
    const self = actor.actorType === spec.account && actor.actorId === String(entityId);
    // Setting one's own PIN (the set-up link, signed in) is not a reset; anyone else setting it is.
    if (!self && !(actor.door === 'api' && actor.actorId === null)) return { schoolId, action: 'pin.reset', entityType, entityId: entityId as number, changes };
  }
  const verb = spec.verb ? spec.verb(kind, changes, row) : kind;
  return { schoolId, action: `${entityType}.${verb}`, entityType, entityId: entityId as number, changes };
}

const values = (instance: Model): Row => ({ ...(instance.get({ plain: true }) as Row) });
const previous = (instance: Model): Row => ({ ...values(instance), ...((instance as unknown as { _previousDataValues: Row })._previousDataValues) });

/** The row with its JSON columns parsed, so that before and after compare (and are recorded) alike. */
function parsedRow(row: Row | null, fields: string[]): Row | null {
  if (!row || fields.length === 0) return row;
  const out = { ...row };
  for (const f of fields) {
    if (typeof out[f] !== 'string') continue;
    try {
      out[f] = JSON.parse(out[f] as string);
    } catch {
      // Not JSON after all: kept as the text it is.
    }
  }
  return out;
}

async function capture(model: ModelStatic<Model>, kind: Kind, pairs: Array<[Row | null, Row | null]>, transaction: Transaction | null | undefined) {
  const spec = audited.get(model);
  if (!spec) return;
  const fields = jsonColumnsOf(model);
  const entries = pairs.map(([b, a]) => entryFor(spec, kind, parsedRow(b, fields), parsedRow(a, fields))).filter((e): e is AuditEntry => e !== null);
  await recordAudit(entries, transaction);
}

/** The audit events of rows an audited table gained by a statement written by hand (a multi-row INSERT), as if made through its model. */
export const auditCreated = (model: ModelStatic<Model>, rows: Row[], transaction: Transaction | null | undefined) =>
  capture(model, 'create', rows.map((r) => [null, r]), transaction);

/** The rows an upsert by id is about to overwrite, read in its transaction so the trail can say what changed. */
const overwritten = new WeakMap<object, Map<string, Row>>();
/** The rows a bulk update or delete matched, read just before it. */
const matched = new WeakMap<object, Row[]>();
type BulkOptions = { where?: WhereOptions; transaction?: Transaction | null; individualHooks?: boolean };

/**
 * The audit capture, in one place: every create, update and delete made through a model of an
 * audited table writes its events in the same transaction, whoever calls it, each with the row's
 * before and after. Statements written by hand record their own events (`recordAudit`).
 */
export function installAuditCapture(sequelize: Sequelize): void {
  sequelize.addHook('afterCreate', async function (this: ModelStatic<Model>, instance: Model, options: { transaction?: Transaction | null }) {
    await capture(this, 'create', [[null, values(instance)]], options.transaction);
  });
  sequelize.addHook('afterUpdate', async function (this: ModelStatic<Model>, instance: Model, options: { transaction?: Transaction | null }) {
    await capture(this, 'update', [[previous(instance), values(instance)]], options.transaction);
  });
  sequelize.addHook('afterDestroy', async function (this: ModelStatic<Model>, instance: Model, options: { transaction?: Transaction | null }) {
    await capture(this, 'delete', [[values(instance), null]], options.transaction);
  });
  // A bulk update or delete keeps Sequelize's own statement (and its count of affected rows): the rows
  // it matches are read before it, and again after an update, in its transaction.
  for (const hook of ['beforeBulkUpdate', 'beforeBulkDestroy'] as const) {
    sequelize.addHook(hook, async function (this: ModelStatic<Model>, options: BulkOptions) {
      if (!audited.has(this) || options.individualHooks) return;
      matched.set(options, (await this.findAll({ where: options.where, raw: true, transaction: options.transaction })) as unknown as Row[]);
    });
  }
  sequelize.addHook('afterBulkUpdate', async function (this: ModelStatic<Model>, options: BulkOptions) {
    const before = matched.get(options);
    if (!before?.length) return;
    const key = this.primaryKeyAttribute;
    const after = new Map(((await this.findAll({ where: { [key]: before.map((r) => r[key]) }, raw: true, transaction: options.transaction })) as unknown as Row[]).map((r) => [String(r[key]), r]));
    await capture(this, 'update', before.map((r) => [r, after.get(String(r[key])) ?? null] as [Row, Row | null]).filter(([, a]) => a !== null), options.transaction);
  });
  sequelize.addHook('afterBulkDestroy', async function (this: ModelStatic<Model>, options: BulkOptions) {
    const before = matched.get(options);
    if (before?.length) await capture(this, 'delete', before.map((r) => [r, null]), options.transaction);
  });
  sequelize.addHook('beforeBulkCreate', async function (this: ModelStatic<Model>, instances: Model[], options: BulkCreateOptions) {
    if (!audited.has(this) || !options.updateOnDuplicate) return;
    const ids = instances.map((i) => i.get('id')).filter((id) => id !== undefined && id !== null);
    if (ids.length === 0) return;
    const rows = (await this.findAll({ where: { id: { [Op.in]: ids } }, raw: true, transaction: options.transaction })) as unknown as Row[];
    overwritten.set(options, new Map(rows.map((r) => [String(r.id), r])));
  });
  sequelize.addHook('afterBulkCreate', async function (this: ModelStatic<Model>, instances: Model[], options: BulkCreateOptions) {
    if (!audited.has(this)) return;
    const before = overwritten.get(options);
    const created: Array<[Row | null, Row | null]> = [];
    const updated: Array<[Row | null, Row | null]> = [];
    for (const instance of instances) {
      const after = values(instance);
      const old = before?.get(String(after.id));
      if (old) updated.push([old, { ...old, ...pick(after, options.updateOnDuplicate as string[]) }]);
      else created.push([null, after]);
    }
    await capture(this, 'create', created, options.transaction);
    await capture(this, 'update', updated, options.transaction);
  });
}

const pick = (row: Row, keys: string[]): Row => Object.fromEntries(keys.filter((k) => k in row).map((k) => [k, row[k]]));
