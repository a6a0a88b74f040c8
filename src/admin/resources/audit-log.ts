import type { ResourceWithOptions } from 'adminjs';
import type { AppContext } from '../../context.js';
import { AuditEvent } from '../../models/index.js';
import { actorTypes, auditEntityTypes, doors } from '../../models/audit-event.js';
import { roleAccess } from '../access.js';
import { auditActionLabel, auditActions } from '../labels/audit-actions.js';
import { actorTypeLabels, doorLabels, entityTypeLabels } from '../labels/codes.js';
import { fieldLabel } from '../locale.js';
import type { Enricher } from '../scoped-resource.js';
import { defineResource } from './define.js';
import { linkedNames, resourceOfKind, type Pointer } from './linked-names.js';
import { menu } from '../labels/menu.js';
import { coded, named } from './properties.js';

export function auditLogResource(ctx: AppContext): ResourceWithOptions {
  return defineResource(ctx, {
    model: AuditEvent,
    scope: { schoolColumn: 'school_id', enrich: [changeRows, linkedNames('item', itemOf), linkedNames('actor', actorOf)], quickSearch: ['actor_name', 'entity_id'] },
    access: roleAccess.auditLog,
    options: {
      navigation: menu.access,
      sort: { sortBy: 'id', direction: 'desc' },
      listProperties: ['at', 'actor', 'action', 'item', 'door'],
      filterProperties: ['at', 'actor_type', 'actor_id', 'door', 'action', 'entity_type', 'entity_id'],
      showProperties: ['school_id', 'id', 'at', 'action', 'actor', 'actor_type', 'actor_id', 'door', 'item', 'entity_type', 'entity_id', 'change_rows', 'ip', 'request_id'],
      properties: {
        action: coded(auditActions, Object.fromEntries(auditActions.map((a) => [a, auditActionLabel(a)])), { isTitle: true }),
        actor_type: coded(actorTypes, actorTypeLabels),
        door: coded(doors, doorLabels),
        entity_type: coded(auditEntityTypes, entityTypeLabels),
        actor: named(),
        item: named(),
        change_rows: {
          type: 'mixed', components: { show: 'AuditChanges' }, isVisible: { list: false, filter: false, show: true, edit: false },
          description: 'Each changed field, before and after; secrets read [redacted]',
        },
      },
    },
    services: {},
  });
}

/** The record an event is about, by its name: the activity's title, the write-to subject, the staff member's name. */
const itemOf = (row: Record<string, unknown>): Pointer | null => (row.entity_id == null ? null : { kind: String(row.entity_type), id: row.entity_id });

/** Who acted: a person by name and linked; the operator or a job by what the event calls them. */
function actorOf(row: Record<string, unknown>): Pointer | null {
  if (['parent', 'staff', 'admin'].includes(String(row.actor_type)) && row.actor_id != null) return { kind: String(row.actor_type), id: row.actor_id };
  return { label: String(row.actor_name ?? actorTypeLabels[String(row.actor_type)] ?? '') };
}

/**
 * An event's changes as one row per field, on its page: the field's label as the console's forms
 * name it, before and after as stored ([redacted] stays so); in lists, nothing of them.
 */
const changeRows: Enricher = async (rows, _admin, detail) => {
  for (const row of rows) {
    const changes = row.changes as Record<string, [unknown, unknown]> | null;
    row.changes = null;
    if (!detail || !changes) continue;
    const resource = resourceOfKind(String(row.entity_type));
    row.change_rows = Object.entries(changes).flatMap(([field, pair]) => {
      const [before, after] = Array.isArray(pair) ? pair : [null, pair];
      // An object (a staff member's permissions) reads as one row per key that changed.
      if (isObject(before) || isObject(after)) {
        const keys = [...new Set([...Object.keys(isObject(before) ? before : {}), ...Object.keys(isObject(after) ? after : {})])];
        return keys
          .map((key) => ({ field: fieldLabel(resource, `${field}.${key}`, fieldLabel(resource, field)), before: shown(isObject(before) ? before[key] : null), after: shown(isObject(after) ? after[key] : null) }))
          .filter((r) => r.before !== r.after);
      }
      return [{ field: fieldLabel(resource, field), before: shown(before), after: shown(after) }];
    });
  }
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const shown = (value: unknown): string => (value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));
