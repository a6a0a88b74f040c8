import type { PropertyOptions } from 'adminjs';
import { features, levels } from '../../services/access/rbac.js';
import { featureLabels, permissionLevelLabels } from '../labels/codes.js';
import { choices } from '../labels/words.js';

/**
 * Permissions (a staff member's own, a designation's) as one select of levels per feature; on a
 * page, each feature's level in words. `unset` names a feature left empty: the designation's level
 * for a staff member, none for a designation.
 */
export function rbacProperties(description: string, unset: string): Record<string, PropertyOptions> {
  const out: Record<string, PropertyOptions> = {
    rbac: {
      type: 'mixed', description, components: { show: 'PermissionLevels', edit: 'PermissionLevelsEdit' }, custom: { features: featureLabels, unset },
      isVisible: { list: false, filter: false, show: true, edit: true },
    },
  };
  for (const feature of features) out[`rbac.${feature}`] = { availableValues: choices(levels, permissionLevelLabels) };
  return out;
}
