import { fieldError } from '../../errors.js';

export const features = ['activities', 'noticeboard', 'students', 'write_to', 'attendance', 'diary'] as const;
export const levels = ['none', 'view', 'create', 'manage'] as const;
export type Feature = (typeof features)[number];
export type Level = (typeof levels)[number];
export type Rbac = Partial<Record<Feature, Level>>;
export type PermissionKey = `${Feature}.${Exclude<Level, 'none'>}`;

const rank = (level: Level | undefined) => (level ? levels.indexOf(level) : 0);

/** Checks an rbac object from a request: unknown features or levels are a 400 naming the field. */
export function parseRbac(value: unknown, field = 'rbac'): Rbac {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw fieldError(field, 'must be an object of feature: level');
  const out: Rbac = {};
  for (const [feature, level] of Object.entries(value)) {
    if (!(features as readonly string[]).includes(feature)) {
      throw fieldError(`${field}.${feature}`, `is not a feature (one of ${features.join(', ')})`);
    }
    if (typeof level !== 'string' || !(levels as readonly string[]).includes(level)) {
      throw fieldError(`${field}.${feature}`, `must be one of ${levels.join(', ')}`);
    }
    out[feature as Feature] = level as Level;
  }
  return out;
}

/** The designation's rbac overlaid with the staff member's own; every feature is named in the result. */
export function effectiveRbac(designation: Rbac | null | undefined, own: Rbac | null | undefined): Record<Feature, Level> {
  const out = {} as Record<Feature, Level>;
  for (const f of features) out[f] = own?.[f] ?? designation?.[f] ?? 'none';
  return out;
}

/** `feature.level` holds when the rbac grants that level or a higher one (none < view < create < manage). */
export function grants(rbac: Rbac | null | undefined, key: PermissionKey): boolean {
  const [feature, level] = key.split('.') as [Feature, Level];
  return rank(rbac?.[feature]) >= rank(level);
}

/** One feature of a staff member's effective permissions and where its level comes from. */
export interface PermissionSource {
  feature: Feature;
  level: Level;
  /** `own`: the staff member's own rbac; `designation`: the designation named; null: neither names the feature (level none). */
  from: 'own' | 'designation' | null;
  designation: string | null;
}

/** effectiveRbac feature by feature, saying for each whether the level is the staff member's own or their designation's. */
export function permissionSources(designation: { name: string; rbac: Rbac | null } | null, own: Rbac | null | undefined): PermissionSource[] {
  return features.map((feature) => {
    const mine = own?.[feature];
    if (mine) return { feature, level: mine, from: 'own' as const, designation: null };
    const theirs = designation?.rbac?.[feature];
    if (theirs) return { feature, level: theirs, from: 'designation' as const, designation: designation!.name };
    return { feature, level: 'none' as const, from: null, designation: null };
  });
}
