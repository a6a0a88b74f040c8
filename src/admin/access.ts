import type { AdminRole } from '../models/index.js';
import type { ConsoleAdmin } from './auth.js';

/** What a role may do with a resource: nothing, look (list, search, show), or also change it through its actions. */
export type Access = 'none' | 'read' | 'write';
export type RoleAccess = Record<AdminRole, Access>;

/**
 * CONTRACT.md section 16: super_admin sees every resource of its school; admin every one but Admin
 * users, with Designations read only; it_contact Sessions and Notifications only; platform_admin
 * everything, Schools included.
 */
export const roleAccess = {
  schools: { platform_admin: 'write', super_admin: 'none', admin: 'none', it_contact: 'none' },
  /** A school's own settings (name, time zone): changed by its super_admin, seen by its admins. */
  schoolSettings: { platform_admin: 'write', super_admin: 'write', admin: 'read', it_contact: 'none' },
  adminUsers: { platform_admin: 'write', super_admin: 'write', admin: 'none', it_contact: 'none' },
  designations: { platform_admin: 'write', super_admin: 'write', admin: 'read', it_contact: 'none' },
  school: { platform_admin: 'write', super_admin: 'write', admin: 'write', it_contact: 'none' },
  readOnly: { platform_admin: 'read', super_admin: 'read', admin: 'read', it_contact: 'none' },
  devices: { platform_admin: 'write', super_admin: 'write', admin: 'write', it_contact: 'write' },
  devicesReadOnly: { platform_admin: 'read', super_admin: 'read', admin: 'read', it_contact: 'read' },
  /** The audit trail, as on GET /web-app/audit-log: read only, by super_admin and it_contact. */
  auditLog: { platform_admin: 'read', super_admin: 'read', admin: 'none', it_contact: 'read' },
  /** Webhooks hand the school's data to another system: its super_admin's decision, as on /web-app/webhooks. */
  webhooks: { platform_admin: 'write', super_admin: 'write', admin: 'none', it_contact: 'none' },
  webhookDeliveries: { platform_admin: 'read', super_admin: 'read', admin: 'none', it_contact: 'none' },
  /** A family's access export and an erasure, as on /web-app/students/:id/export and /erase. */
  privacy: { platform_admin: 'write', super_admin: 'write', admin: 'none', it_contact: 'none' },
} satisfies Record<string, RoleAccess>;

/** Diagnostics (the test push) belong to super_admin and it_contact, as on /web-app/diagnostics. */
export const diagnosticsRoles: AdminRole[] = ['platform_admin', 'super_admin', 'it_contact'];

const rank: Record<Access, number> = { none: 0, read: 1, write: 2 };

export function allows(access: RoleAccess, admin: ConsoleAdmin | undefined, needed: Exclude<Access, 'none'>): boolean {
  if (!admin?.role) return false;
  return rank[access[admin.role] ?? 'none'] >= rank[needed];
}
