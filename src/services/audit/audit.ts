import type { Transaction } from 'sequelize';
import { insertRows } from '../../db.js';
import { chunks } from '../batches.js';
import { AuditEvent, type AuditEntityType } from '../../models/audit-event.js';
import { AdminUser, Parent, Staff } from '../../models/index.js';
import { currentActor, type AuditActor } from './context.js';

/** A field changed: `[before, after]`; null stands for absent (a new or a deleted record). */
export type Changes = Record<string, [unknown, unknown]>;

export interface AuditEntry {
  schoolId: string | null;
  action: string;
  entityType: AuditEntityType;
  entityId: string | number | null;
  changes?: Changes | null;
  /** Overrides of the acting door's actor: a sign-in names the account it was for. */
  actor?: Partial<AuditActor>;
}

export const REDACTED = '[redacted]';
/** PINs, passwords, their hashes, tokens and secrets: never written to the trail, whatever the table calls them. */
const SECRET_FIELD = /pin|password|hash|token|secret/i;

const NOT_CHANGES = new Set(['id', 'school_id', 'created_at', 'updated_at']);

function plain(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Buffer.isBuffer(value)) return REDACTED;
  return value === undefined ? null : value;
}

/** The fields that differ between two versions of a row, secrets redacted. */
export function diff(before: Record<string, unknown> | null, after: Record<string, unknown> | null, only?: readonly string[]): Changes {
  const out: Changes = {};
  const keys = only ?? [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  for (const key of keys) {
    if (NOT_CHANGES.has(key)) continue;
    const b = plain(before?.[key]);
    const a = plain(after?.[key]);
    if (JSON.stringify(b) === JSON.stringify(a)) continue;
    if (before === null && a === null) continue;
    out[key] = SECRET_FIELD.test(key) ? [b === null ? null : REDACTED, a === null ? null : REDACTED] : [b, a];
  }
  return out;
}

type Lookup = (id: number, transaction: Transaction | undefined) => Promise<string | null>;
const nameOf: Record<string, Lookup> = {
  parent: async (id, transaction) => (await Parent.findByPk(id, { attributes: ['father_name'], raw: true, transaction }))?.father_name ?? null,
  staff: async (id, transaction) => (await Staff.findByPk(id, { attributes: ['name'], raw: true, transaction }))?.name ?? null,
  admin: async (id, transaction) => (await AdminUser.findByPk(id, { attributes: ['name'], raw: true, transaction }))?.name ?? null,
};

/** The acting person's name, read once per request (the API knows only the id) and kept on the request's actor. */
async function named(actor: AuditActor, transaction: Transaction | undefined): Promise<AuditActor> {
  if (actor.actorName !== null || actor.actorId === null || !nameOf[actor.actorType] || !/^\d+$/.test(actor.actorId)) return actor;
  actor.actorName = await nameOf[actor.actorType]!(Number(actor.actorId), transaction);
  return actor;
}

/** Appends events in the caller's transaction (or at once when there is none), as the acting door's actor. */
export async function recordAudit(entries: AuditEntry[], transaction?: Transaction | null): Promise<void> {
  if (entries.length === 0) return;
  const acting = currentActor();
  const base = entries.some((e) => !e.actor?.actorType) ? await named(acting, transaction ?? undefined) : acting;
  const at = new Date();
  const rows = entries.map((e) => {
    const actor = { ...base, ...e.actor };
    return [
      e.schoolId, at, actor.actorType, actor.actorId, actor.actorName, actor.door, e.action, e.entityType, e.entityId === null ? null : String(e.entityId),
      e.changes && Object.keys(e.changes).length ? JSON.stringify(e.changes) : null, actor.ip, actor.requestId,
    ];
  });
  // Multi-row INSERTs, not the model's bulkCreate: a school-wide post writes an event for each of thousands of records.
  for (const chunk of chunks(rows)) await insertRows(AuditEvent.sequelize!, 'audit_events', AUDIT_COLUMNS, chunk, transaction ?? undefined);
}

const AUDIT_COLUMNS = ['school_id', 'at', 'actor_type', 'actor_id', 'actor_name', 'door', 'action', 'entity_type', 'entity_id', 'changes', 'ip', 'request_id'] as const;
