import type { Principal } from '../../context.js';
import { forbidden } from '../../errors.js';
import type { AdminRole } from '../../models/admin-user.js';
import { grants, type PermissionKey } from './rbac.js';

/** Admin roles allowed to do something; platform_admin passes every check. */
export function requireRole(principal: Principal, ...roles: AdminRole[]): void {
  if (principal.type !== 'admin' || !principal.role) throw forbidden('This needs an administrator');
  if (principal.role === 'platform_admin') return;
  if (!roles.includes(principal.role)) throw forbidden(`This needs one of the roles: ${roles.join(', ')}`);
}

/** super_admin and admin: everything in the school except designations, admin users and diagnostics. */
export const requireSchoolAdmin = (principal: Principal) => requireRole(principal, 'super_admin', 'admin');

/**
 * A staff permission (`feature.level`). Admins of the school (super_admin, admin) pass every staff
 * permission check; staff need the level in their effective rbac.
 */
export function hasPermission(principal: Principal, key: PermissionKey): boolean {
  if (principal.type === 'admin') return principal.role === 'super_admin' || principal.role === 'admin' || principal.role === 'platform_admin';
  if (principal.type === 'staff') return grants(principal.rbac, key);
  return false;
}

export function requirePermission(principal: Principal, key: PermissionKey): void {
  if (!hasPermission(principal, key)) throw forbidden(`This needs the permission ${key}`);
}

/**
 * The principal the operator acts as from the command line (and a platform_admin in the console):
 * scoped to one school, with every role and permission.
 */
export function operatorPrincipal(schoolId: string): Principal {
  return { type: 'admin', userId: 0, schoolId, sessionId: 0, role: 'platform_admin' };
}
