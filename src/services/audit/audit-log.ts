import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { Op, type WhereOptions } from 'sequelize';
import { z } from 'zod';
import type { Principal } from '../../context.js';
import { iso } from '../../db.js';
import { AuditEvent, actorTypes, auditEntityTypes, doors } from '../../models/audit-event.js';
import { requireRole } from '../access/guards.js';
import { offsetOf, paginationOf } from '../pagination.js';
import { pageQuery } from '../schemas.js';
import { parseInput } from '../validation.js';

/** An ISO 8601 time (one without an offset is UTC, as every time here), or a day (`from` its first moment, `to` its last). */
const instant = (what: string, end: boolean) =>
  z.union([z.iso.datetime({ offset: true, local: true }), z.iso.date()], { error: 'must be an ISO 8601 time or a date YYYY-MM-DD' })
    .transform((v) => (v.length === 10 ? `${v}T${end ? '23:59:59.999' : '00:00:00.000'}Z` : /(Z|[+-]\d\d(:?\d\d)?)$/i.test(v) ? v : `${v}Z`))
    .describe(what);

export const auditFilters = {
  actor_type: z.enum(actorTypes).optional(),
  actor_id: z.string().trim().min(1).max(64).optional(),
  action: z.string().trim().min(1).max(64).optional().describe('`student.update`, `login.failure`, ...'),
  entity_type: z.enum(auditEntityTypes).optional(),
  entity_id: z.string().trim().min(1).max(64).optional(),
  from: instant('Events at or after this time (a date: from its start)', false).optional(),
  to: instant('Events at or before this time (a date: to its end)', true).optional(),
};
export const auditLogQuery = z.object({ ...auditFilters, ...pageQuery(50) });
export type AuditFilters = z.output<z.ZodObject<typeof auditFilters>>;

export const auditEventView = z.object({
  id: z.number(),
  school_id: z.string().nullable(),
  at: z.string(),
  actor_type: z.enum(actorTypes),
  actor_id: z.string().nullable(),
  actor_name: z.string().nullable(),
  door: z.enum(doors),
  action: z.string(),
  entity_type: z.enum(auditEntityTypes),
  entity_id: z.string().nullable(),
  changes: z.record(z.string(), z.tuple([z.unknown(), z.unknown()])).nullable().describe('Each changed field as `[before, after]`; secrets read `[redacted]`'),
  ip: z.string().nullable(),
  request_id: z.string().nullable(),
});
export type AuditEventView = z.infer<typeof auditEventView>;

export const AUDIT_COLUMNS = ['id', 'school_id', 'at', 'actor_type', 'actor_id', 'actor_name', 'door', 'action', 'entity_type', 'entity_id', 'changes', 'ip', 'request_id'] as const;

export function auditView(row: AuditEvent | Record<string, unknown>): AuditEventView {
  const r = row as Record<string, unknown>;
  const changes = typeof r.changes === 'string' ? JSON.parse(r.changes) : (r.changes ?? null);
  return {
    id: Number(r.id), school_id: (r.school_id as string | null) ?? null, at: iso(r.at as Date)!, actor_type: r.actor_type as AuditEventView['actor_type'],
    actor_id: (r.actor_id as string | null) ?? null, actor_name: (r.actor_name as string | null) ?? null, door: r.door as AuditEventView['door'], action: String(r.action),
    entity_type: r.entity_type as AuditEventView['entity_type'], entity_id: (r.entity_id as string | null) ?? null, changes, ip: (r.ip as string | null) ?? null,
    request_id: (r.request_id as string | null) ?? null,
  };
}

/** The filters as a query on one school's events. */
export function auditWhere(schoolId: string, f: Partial<AuditFilters>): WhereOptions {
  const where: Record<string | symbol, unknown> = { school_id: schoolId };
  for (const key of ['actor_type', 'actor_id', 'action', 'entity_type', 'entity_id'] as const) if (f[key] !== undefined) where[key] = f[key];
  if (f.from || f.to) where.at = { ...(f.from ? { [Op.gte]: new Date(f.from) } : {}), ...(f.to ? { [Op.lte]: new Date(f.to) } : {}) };
  return where as WhereOptions;
}

/** The school's trail, newest first (super_admin, it_contact). */
export async function listAuditEvents(principal: Principal, input: z.input<typeof auditLogQuery>): Promise<{ events: AuditEventView[]; pagination: ReturnType<typeof paginationOf> }> {
  requireRole(principal, 'super_admin', 'it_contact');
  const query = parseInput(auditLogQuery, input);
  const where = auditWhere(principal.schoolId, query);
  const [rows, total] = await Promise.all([
    AuditEvent.findAll({ where, order: [['id', 'DESC']], limit: query.limit, offset: offsetOf(query), raw: true }),
    AuditEvent.count({ where }),
  ]);
  return { events: rows.map(auditView), pagination: paginationOf(total, query) };
}

export const exportFormats = ['jsonl', 'csv'] as const;
export type ExportFormat = (typeof exportFormats)[number];
const EXPORT_BATCH = 1000;

const csvCell = (v: AuditEventView, column: (typeof AUDIT_COLUMNS)[number]) => (column === 'changes' ? (v.changes ? JSON.stringify(v.changes) : '') : v[column]);

/**
 * Streams a school's events, oldest first, as JSON lines or CSV: read in keyset batches by id and
 * written with the stream's back-pressure, so memory stays flat whatever the range.
 */
export async function exportAuditEvents(schoolId: string, filters: Partial<AuditFilters>, format: ExportFormat, out: Writable): Promise<number> {
  const send = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  if (format === 'csv') await send(stringify([[...AUDIT_COLUMNS]]));
  let after = 0;
  let count = 0;
  for (;;) {
    const rows = await AuditEvent.findAll({
      where: { [Op.and]: [auditWhere(schoolId, filters), { id: { [Op.gt]: after } }] }, order: [['id', 'ASC']], limit: EXPORT_BATCH, raw: true,
    });
    if (rows.length === 0) break;
    const views = rows.map(auditView);
    await send(format === 'csv' ? stringify(views.map((v) => AUDIT_COLUMNS.map((c) => csvCell(v, c)))) : views.map((v) => JSON.stringify(v)).join('\n') + '\n');
    after = views[views.length - 1]!.id;
    count += views.length;
  }
  return count;
}
