import type { PropertyOptions } from 'adminjs';
import { features, levels } from '../../services/access/rbac.js';
import { permissionLevelLabels } from '../labels/codes.js';
import { choices } from '../labels/words.js';

/** Permissions (a staff member's own, a designation's) as one select of levels per feature; on a page, each feature's level in words. */
export function rbacProperties(label: string): Record<string, PropertyOptions> {
  const out: Record<string, PropertyOptions> = { rbac: { type: 'mixed', description: label, components: { show: 'PermissionLevels' }, isVisible: { list: false, filter: false, show: true, edit: true } } };
  for (const feature of features) out[`rbac.${feature}`] = { availableValues: choices(levels, permissionLevelLabels) };
  return out;
}
