import { Op, type Model, type ModelStatic } from 'sequelize';
import {
  Activity, AdminUser, Comment, Designation, DiaryEntry, Grade, Group, Notice, Notification, Parent, School, Staff, Student, Webhook, WriteToRequest,
} from '../../models/index.js';
import { allows, roleAccess, type RoleAccess } from '../access.js';
import type { ConsoleAdmin } from '../auth.js';
import { entityTypeLabels } from '../labels/codes.js';
import { labelOf } from '../labels/words.js';
import type { Enricher } from '../scoped-resource.js';

/** What a kind of record is called by, and the console resource that shows it. */
interface NameSource {
  model: ModelStatic<Model>;
  /** The columns that name it, the first that is set wins. */
  name: string[];
  resource: string;
  access: RoleAccess;
  /** The table's school column: the schools table keys a school by its id. */
  schoolColumn?: string;
}

const sources: Record<string, NameSource> = {
  parent: { model: Parent, name: ['father_name', 'mother_name', 'phone_no'], resource: 'parents', access: roleAccess.school },
  staff: { model: Staff, name: ['name'], resource: 'staff', access: roleAccess.school },
  admin: { model: AdminUser, name: ['name', 'email'], resource: 'admin_users', access: roleAccess.adminUsers },
  admin_user: { model: AdminUser, name: ['name', 'email'], resource: 'admin_users', access: roleAccess.adminUsers },
  student: { model: Student, name: ['student_full_name'], resource: 'students', access: roleAccess.school },
  activity: { model: Activity, name: ['title'], resource: 'activities', access: roleAccess.school },
  noticeboard: { model: Notice, name: ['notice_title'], resource: 'notices', access: roleAccess.school },
  diary: { model: DiaryEntry, name: ['title'], resource: 'diary_entries', access: roleAccess.school },
  write_to: { model: WriteToRequest, name: ['subject'], resource: 'write_to_requests', access: roleAccess.school },
  group: { model: Group, name: ['name'], resource: 'student_groups', access: roleAccess.school },
  grade: { model: Grade, name: ['name'], resource: 'grades', access: roleAccess.school },
  designation: { model: Designation, name: ['name'], resource: 'designations', access: roleAccess.designations },
  webhook: { model: Webhook, name: ['url'], resource: 'webhooks', access: roleAccess.webhooks },
  comment: { model: Comment, name: ['content'], resource: 'comments', access: roleAccess.school },
  notification: { model: Notification, name: ['title'], resource: 'notifications', access: roleAccess.devicesReadOnly },
  school: { model: School, name: ['name'], resource: 'school_settings', access: roleAccess.schoolSettings, schoolColumn: 'id' },
};

/** The console resource that shows a kind of record, if any. */
export const resourceOfKind = (kind: string): string | null => sources[kind]?.resource ?? null;

/** What a row points at: a kind of record (parent, staff, activity, ...) and its id, or words for what has no record (a device). */
export type Pointer = { kind: string; id: unknown } | { label: string };

export interface LinkedName {
  label: string;
  href: string | null;
}

const recordHref = (resource: string, id: string) => `/admin/resources/${resource}/records/${encodeURIComponent(id)}/show`;
const shortened = (text: string) => (text.length > 80 ? `${text.slice(0, 77)}...` : text);

/**
 * Puts `{label, href}` under `property` on each row for the record `pointer` names: its name, linked
 * to its page when the admin may open that resource. One query per kind of record and school, read
 * in the row's own school; a record that is gone, or of no kind with a name, reads as its kind and id.
 */
export function linkedNames(property: string, pointer: (row: Record<string, unknown>) => Pointer | null): Enricher {
  return async (rows, admin: ConsoleAdmin) => {
    const wanted = new Map<string, { schoolId: string; kind: string; ids: Set<string> }>();
    const pointers = rows.map((row) => {
      const p = pointer(row);
      if (p && 'label' in p) return p;
      if (!p || p.id === null || p.id === undefined || p.id === '') return null;
      const id = String(p.id);
      const schoolId = String(row.school_id ?? '');
      if (sources[p.kind]) {
        const key = `${schoolId}\u0000${p.kind}`;
        if (!wanted.has(key)) wanted.set(key, { schoolId, kind: p.kind, ids: new Set() });
        wanted.get(key)!.ids.add(id);
      }
      return { kind: p.kind, id, schoolId };
    });
    const names = new Map<string, string>();
    for (const { schoolId, kind, ids } of wanted.values()) {
      const source = sources[kind]!;
      const numeric = [...ids].filter((id) => source.schoolColumn === 'id' || /^\d{1,10}$/.test(id));
      if (!numeric.length) continue;
      const found = (await source.model.findAll({
        // Both conditions kept apart: for the school itself the school's column is `id` too.
        where: { [Op.and]: [{ [source.schoolColumn ?? 'school_id']: schoolId }, { id: { [Op.in]: numeric } }] },
        attributes: ['id', ...source.name],
        raw: true,
      })) as unknown as Array<Record<string, unknown>>;
      for (const row of found) {
        const name = source.name.map((c) => row[c]).find((v) => v !== null && v !== undefined && String(v).trim() !== '');
        if (name !== undefined) names.set(`${schoolId}\u0000${kind}\u0000${row.id}`, shortened(String(name)));
      }
    }
    rows.forEach((row, i) => {
      const p = pointers[i];
      if (!p) return;
      if ('label' in p) {
        row[property] = { label: p.label, href: null } satisfies LinkedName;
        return;
      }
      const source = sources[p.kind];
      const name = names.get(`${p.schoolId}\u0000${p.kind}\u0000${p.id}`);
      const value: LinkedName = name !== undefined
        ? { label: name, href: allows(source!.access, admin, 'read') ? recordHref(source!.resource, p.id) : null }
        : { label: `${labelOf(entityTypeLabels, p.kind)} ${p.id}`, href: null };
      row[property] = value;
    });
  };
}
