import type { Transaction } from 'sequelize';
import { AuditEvent, type AuditEntityType } from '../../models/audit-event.js';
import { isTx, sqlTime, txOf, type Dialect, type Tx } from '../../db.js';
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

/** The acting person's name by account type: read once per request when the session check did not. */
const NAME_SQL: Record<string, string> = {
  parent: 'SELECT father_name AS name FROM parents WHERE id = :id',
  staff: 'SELECT name FROM staff WHERE id = :id',
  admin: 'SELECT name FROM admin_users WHERE id = :id',
};

/** The acting person's name, read once per request (the API knows only the id) and kept on the request's actor. */
async function named(actor: AuditActor, tx: Tx): Promise<AuditActor> {
  const sql = NAME_SQL[actor.actorType];
  if (actor.actorName !== null || actor.actorId === null || !sql || !/^\d+$/.test(actor.actorId)) return actor;
  const [row] = await tx.select<{ name: string | null }>(sql, { id: Number(actor.actorId) });
  actor.actorName = row?.name ?? null;
  return actor;
}

const AUDIT_CHUNK = 1000;
const AUDIT_COLUMNS = ['school_id', 'at', 'actor_type', 'actor_id', 'actor_name', 'door', 'action', 'entity_type', 'entity_id', 'changes', 'ip', 'request_id'] as const;

/**
 * Appends events in the caller's transaction (a Sequelize one or a Tx), or at once when there is
 * none, as the acting door's actor: one bound INSERT for them all.
 */
export async function recordAudit(entries: AuditEntry[], transaction?: Transaction | Tx | null): Promise<void> {
  if (entries.length === 0) return;
  const sequelize = AuditEvent.sequelize!;
  const db = { sequelize, dialect: sequelize.getDialect() as Dialect };
  const tx = !transaction ? txOf(db, null) : isTx(transaction) ? transaction : txOf(db, transaction);
  const acting = currentActor();
  const base = entries.some((e) => !e.actor?.actorType) ? await named(acting, tx) : acting;
  const at = sqlTime(db.dialect, new Date());
  // A prepared statement takes at most 65,535 values: an import's events go in chunks.
  for (let start = 0; start < entries.length; start += AUDIT_CHUNK) {
    const values: Record<string, unknown> = {};
    const rows = entries.slice(start, start + AUDIT_CHUNK).map((e, i) => {
      const actor = { ...base, ...e.actor };
      // Behind a trusted proxy the address is what X-Forwarded-For says, of any length; the column holds 64.
      const row: Record<(typeof AUDIT_COLUMNS)[number], unknown> = {
        school_id: e.schoolId, at, actor_type: actor.actorType, actor_id: actor.actorId, actor_name: actor.actorName, door: actor.door,
        action: e.action, entity_type: e.entityType, entity_id: e.entityId === null ? null : String(e.entityId),
        changes: e.changes && Object.keys(e.changes).length ? JSON.stringify(e.changes) : null, ip: actor.ip?.slice(0, 64) ?? null, request_id: actor.requestId,
      };
      for (const column of AUDIT_COLUMNS) values[`${column}${i}`] = row[column] ?? null;
      return `(${AUDIT_COLUMNS.map((c) => `:${c}${i}`).join(', ')})`;
    });
    await tx.write(`INSERT INTO audit_events (${AUDIT_COLUMNS.join(', ')}) VALUES ${rows.join(', ')}`, values);
  }
}
