import { AppError as ConsoleAppError, type Action, type ActionContext, type ActionResponse, type BaseRecord } from 'adminjs';
import type { Principal } from '../context.js';
import { allows, type RoleAccess } from './access.js';
import { recordPrincipal, resourceId, run, type OneTimeSecret } from './actions.js';
import type { ConsoleAdmin } from './auth.js';

/** A record's own actions beyond new, edit and delete: one click (Archive, End session), or a page with a form (Reply, Reset PIN). */

export interface RecordActionSpec {
  /** Who may run it; the resource's write access is needed as well. */
  allowed: (admin: ConsoleAdmin) => boolean;
  /** Shown only where it applies (Archive on an active staff member, Restore on an archived one). */
  appliesTo?: (record: BaseRecord) => boolean;
  /** Offered only to whom its service would allow it on this record; a call anyway is still judged, and refused in words, by the service. */
  offeredTo?: (admin: ConsoleAdmin, record: BaseRecord) => boolean;
  icon: string;
  /** A confirmation the admin must accept first: every action that ends access or sessions has one. */
  guard?: string;
  variant?: 'danger' | 'primary' | 'default';
  schoolColumn?: 'school_id' | 'id';
  /** Does the work through a service and returns the notice to show. */
  perform: (principal: Principal, record: BaseRecord, admin: ConsoleAdmin) => Promise<{ message: string; type?: 'success' | 'error' | 'info' }>;
}

/** Whether the signed-in admin may run a record action: the resource's write access, and the action's own rule. */
const permittedTo = (access: RoleAccess, allowed: (admin: ConsoleAdmin) => boolean) => (context: ActionContext) => {
  const admin = context.currentAdmin as ConsoleAdmin | undefined;
  return !!admin && allows(access, admin, 'write') && allowed(admin);
};

/** A one-click record action (no form): it calls a service, then shows the record as it is now. */
export function recordAction(access: RoleAccess, spec: RecordActionSpec): Partial<Action<ActionResponse>> {
  const permitted = permittedTo(access, spec.allowed);
  return {
    actionType: 'record',
    component: false,
    icon: spec.icon,
    guard: spec.guard,
    variant: spec.variant,
    isAccessible: permitted,
    isVisible: (context) => permitted(context) && (!context.record || (
      (!spec.appliesTo || spec.appliesTo(context.record)) && (!spec.offeredTo || spec.offeredTo(context.currentAdmin as ConsoleAdmin, context.record)))),
    handler: run(async (_request, context, admin) => {
      const record = context.record!;
      if (spec.appliesTo && !spec.appliesTo(record)) throw new ConsoleAppError('This action does not apply to the record as it is now');
      const notice = await spec.perform(recordPrincipal(admin, record, spec.schoolColumn), record, admin);
      const fresh = (await context.resource.findOne(record.id() as never, context)) ?? record;
      return {
        record: fresh.toJSON(context.currentAdmin),
        redirectUrl: context.h.recordActionUrl({ resourceId: resourceId(context), recordId: String(record.id()), actionName: 'show' }),
        notice: { type: 'success', ...notice },
      };
    }),
  };
}

/** A field of a form action's page: typed text, a text area, or a pick among the school's records (its id is sent). */
export interface ActionField {
  name: string;
  label: string;
  hint?: string;
  required?: boolean;
  /** `files`: uploaded through the resource's upload action, sent as their ids in order, comma-separated. */
  type?: 'text' | 'textarea' | 'pick' | 'files';
  inputMode?: 'numeric' | 'text';
  /** The record's param the field starts with (an Assign page starts with who is assigned now). */
  initial?: string;
  /** For a pick: the resource listed (as the admin may read it), its filters, the param that names a record, and the empty choice. */
  pick?: { resource: string; label: string; filters?: Record<string, string>; none?: string };
}

export interface FormActionSpec {
  allowed: (admin: ConsoleAdmin) => boolean;
  appliesTo?: (record: BaseRecord) => boolean;
  icon: string;
  variant?: 'danger' | 'primary' | 'default';
  /** What the action does, said on its page before the admin runs it. */
  intro: string;
  /** The button that runs it. */
  button: string;
  fields?: ActionField[];
  perform: (principal: Principal, record: BaseRecord, input: Record<string, string>) => Promise<{ message: string; secret?: OneTimeSecret }>;
}

/**
 * A record action on a page of its own (the ActionForm component): its fields, then the service.
 * Its answer may carry a one-time secret, which the page shows with a Copy button until closed.
 */
export function formAction(access: RoleAccess, spec: FormActionSpec): Partial<Action<ActionResponse>> {
  const permitted = permittedTo(access, spec.allowed);
  return {
    actionType: 'record',
    component: 'ActionForm',
    icon: spec.icon,
    variant: spec.variant,
    custom: { intro: spec.intro, button: spec.button, fields: spec.fields ?? [], danger: spec.variant === 'danger' },
    isAccessible: permitted,
    isVisible: (context) => permitted(context) && (!context.record || !spec.appliesTo || spec.appliesTo(context.record)),
    handler: run(async (request, context, admin) => {
      const record = context.record!;
      if (request.method !== 'post') return { record: record.toJSON(context.currentAdmin) };
      if (spec.appliesTo && !spec.appliesTo(record)) throw new ConsoleAppError('This action does not apply to the record as it is now');
      const payload = (request.payload ?? {}) as Record<string, unknown>;
      const input = Object.fromEntries((spec.fields ?? []).map((f) => [f.name, String(payload[f.name] ?? '').trim()]));
      const { message, secret } = await spec.perform(recordPrincipal(admin, record), record, input);
      const fresh = (await context.resource.findOne(record.id() as never, context)) ?? record;
      return { record: fresh.toJSON(context.currentAdmin), notice: { message, type: 'success' }, ...(secret ? { secret } : {}) };
    }),
  };
}
