import type { ResourceWithOptions } from 'adminjs';
import type { AppContext } from '../../context.js';
import { AuditEvent } from '../../models/index.js';
import { actorTypes, auditEntityTypes, doors } from '../../models/audit-event.js';
import { roleAccess } from '../access.js';
import { defineResource } from './define.js';
import { menu } from './menu.js';
import { choices } from './properties.js';

export function auditLogResource(ctx: AppContext): ResourceWithOptions {
  return defineResource(ctx, {
    model: AuditEvent, scope: { schoolColumn: 'school_id', enrich: changesAsText }, access: roleAccess.auditLog,
    options: {
      navigation: menu.access,
      sort: { sortBy: 'id', direction: 'desc' },
      listProperties: ['id', 'at', 'actor_type', 'actor_name', 'door', 'action', 'entity_type', 'entity_id'],
      filterProperties: ['at', 'actor_type', 'actor_id', 'door', 'action', 'entity_type', 'entity_id'],
      showProperties: ['school_id', 'id', 'at', 'actor_type', 'actor_id', 'actor_name', 'door', 'action', 'entity_type', 'entity_id', 'changes', 'ip', 'request_id'],
      properties: {
        action: { isTitle: true },
        actor_type: { availableValues: choices(actorTypes) },
        door: { availableValues: choices(doors) },
        entity_type: { availableValues: choices(auditEntityTypes) },
        changes: { type: 'textarea', description: 'Each changed field as [before, after]; secrets read [redacted]' },
      },
    },
    services: { noun: 'Audit event' },
  });
}

/** An event's changes shown as the JSON they are, not as one console field per changed field. */
async function changesAsText(rows: Array<Record<string, unknown>>): Promise<void> {
  for (const row of rows) row.changes = row.changes == null ? null : JSON.stringify(row.changes);
}
