import type { ResourceOptions, ResourceWithOptions } from 'adminjs';
import type { Model, ModelStatic } from 'sequelize';
import type { AppContext } from '../../context.js';
import type { RoleAccess } from '../access.js';
import { serviceActions, type ServiceActions } from '../actions.js';
import { fieldLabel } from '../locale.js';
import { resourceLabels } from '../locale-resources.js';
import { ScopedResource, type ScopeSpec } from '../scoped-resource.js';
import { schoolColumn, shownOnly } from './properties.js';

/** One console resource: its model and scoping, who may see and change it, how AdminJS shows it, and the services its forms call. */
export interface ResourceSpec {
  model: ModelStatic<Model>;
  scope: ScopeSpec;
  access: RoleAccess;
  options: ResourceOptions;
  /** Its notices name the record as the locale does (resourceLabels' `one`). */
  services: Omit<ServiceActions, 'noun'>;
  extraActions?: ResourceOptions['actions'];
}

/**
 * The resource as AdminJS takes it: read through the scoped adapter, its new, edit and delete
 * actions calling the services, the school column shown to the operator alone (and asked of it on a
 * new record), the timestamps shown but never edited.
 */
export function defineResource(ctx: AppContext, spec: ResourceSpec): ResourceWithOptions {
  const properties: ResourceOptions['properties'] = { ...spec.options.properties };
  if (spec.scope.schoolColumn === 'school_id') properties.school_id = { ...schoolColumn, ...properties.school_id };
  for (const key of ['created_at', 'updated_at']) properties[key] = { ...shownOnly, ...properties[key] };
  const editProperties = withSchoolOnNew(spec);
  const resource = new ScopedResource(spec.model, spec.scope);
  const noun = resourceLabels[resource.id()]!.one;
  const searched = spec.scope.quickSearch?.map((term) => (typeof term === 'string' ? fieldLabel(resource.id(), term) : term.label).toLowerCase());
  const quickSearch = searched ? { hint: `Search by ${searched.slice(0, -1).join(', ')}${searched.length > 1 ? ' or ' : ''}${searched.at(-1)}` } : undefined;
  return {
    resource,
    options: {
      ...spec.options,
      ...(editProperties ? { editProperties } : {}),
      properties,
      actions: { ...serviceActions(ctx, spec.access, { schoolColumn: spec.scope.schoolColumn, quickSearch, noun, ...spec.services }), ...spec.extraActions },
    },
  };
}

/** The operator names the school of a new record; the field is invisible to everyone else. */
function withSchoolOnNew(spec: ResourceSpec): string[] | undefined {
  const list = spec.options.editProperties;
  if (!list || spec.scope.schoolColumn !== 'school_id' || list.includes('school_id')) return list;
  return spec.services.create ? ['school_id', ...list] : list;
}
