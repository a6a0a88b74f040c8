import type { PropertyOptions } from 'adminjs';
import { features, levels } from '../../services/access/rbac.js';
import { choices } from './properties.js';

/** Permissions (a staff member's own, a designation's) as one select of levels per feature. */
export function rbacProperties(label: string): Record<string, PropertyOptions> {
  const out: Record<string, PropertyOptions> = { rbac: { type: 'mixed', description: label, isVisible: { list: false, filter: false, show: true, edit: true } } };
  for (const feature of features) out[`rbac.${feature}`] = { availableValues: choices(levels) };
  return out;
}
