import {
  AppError as ConsoleAppError, NotFoundError,
  type Action, type ActionContext, type ActionRequest, type ActionResponse, type BaseRecord, type RecordActionResponse,
} from 'adminjs';
import type { AppContext, Principal } from '../context.js';
import { AppError, fieldError } from '../errors.js';
import { School } from '../models/index.js';
import { allows, type RoleAccess } from './access.js';
import { consoleActor, isPlatformAdmin, principalFor, type ConsoleAdmin } from './auth.js';
import { consoleError } from './console-errors.js';
import { consoleAdminOf } from './scoped-resource.js';
import { formInput, type Fields } from './form-input.js';
import { actingAs } from '../services/audit/context.js';

type Handler<T extends ActionResponse> = (request: ActionRequest, context: ActionContext, admin: ConsoleAdmin) => Promise<T>;

/** Runs an action for the signed-in admin; service errors become AdminJS errors, which AdminJS answers as notices. */
export function run<T extends ActionResponse>(handler: Handler<T>) {
  return async (request: ActionRequest, _response: unknown, context: ActionContext): Promise<T> => {
    const admin = consoleAdminOf(context);
    try {
      return await actingAs(consoleActor(admin), () => handler(request, context, admin));
    } catch (err) {
      throw consoleError(err, context);
    }
  };
}

export const schoolOf = (record: BaseRecord, schoolColumn: 'school_id' | 'id' = 'school_id'): string | null =>
  (record.params[schoolColumn] as string | null | undefined) ?? null;

/** The principal for an action on a record: the admin's own, or for the operator the record's school. */
export const recordPrincipal = (admin: ConsoleAdmin, record: BaseRecord, schoolColumn: 'school_id' | 'id' = 'school_id'): Principal =>
  principalFor(admin, schoolOf(record, schoolColumn));

export interface ServiceActions {
  /** The editable fields (the new and edit forms) and how each is read. */
  fields?: Fields;
  /** `secret`, when given, is shown once on the New page (a new webhook's signing secret, a new guardian's set-up link). */
  create?: (ctx: AppContext, principal: Principal, input: Record<string, unknown>) => Promise<{ id: number | string; secret?: OneTimeSecret }>;
  /**
   * The New page as the console's own form (NewWithSecret): needed where `create` may answer a secret;
   * `properties` when it differs from the edit form, `defaults` and `choices` a new record's starting values and the ones it may take.
   */
  newForm?: { properties?: string[]; defaults?: Record<string, string>; choices?: Record<string, readonly string[]> };
  /** For the schools themselves, which the operator creates outside any school. */
  createSchool?: (ctx: AppContext, input: Record<string, unknown>) => Promise<{ id: number | string }>;
  update?: (ctx: AppContext, principal: Principal, id: number, changes: Record<string, unknown>) => Promise<unknown>;
  remove?: (ctx: AppContext, principal: Principal, id: number) => Promise<unknown>;
  /** The list's quick search box (QuickSearchList), and what it says it looks in. */
  quickSearch?: { hint: string };
  /** Labels the success notices. */
  noun: string;
  schoolColumn?: 'school_id' | 'id';
}

export const resourceId = (context: ActionContext) => context.resource._decorated?.id() ?? context.resource.id();

/** The operator names the school of a record it creates; a school admin's is always its own. */
export async function creatorPrincipal(admin: ConsoleAdmin, payload: Record<string, unknown> | undefined): Promise<Principal> {
  if (!isPlatformAdmin(admin)) return principalFor(admin);
  const schoolId = String(payload?.school_id ?? '').trim();
  if (!schoolId || !(await School.findByPk(schoolId, { attributes: ['id'] }))) throw fieldError('school_id', 'must name an existing school');
  return principalFor(admin, schoolId);
}

/**
 * The new, edit, delete and bulk delete actions of a resource, each calling its service: the same
 * validation, 409s, soft deletes and session endings as the REST API. An action without a service
 * is switched off. Reading (list, search, show) needs `read`; anything else `write`.
 */
export function serviceActions(ctx: AppContext, access: RoleAccess, spec: ServiceActions): Record<string, Partial<Action<ActionResponse>>> {
  const canRead = ({ currentAdmin }: ActionContext) => allows(access, currentAdmin as ConsoleAdmin, 'read');
  const canWrite = ({ currentAdmin }: ActionContext) => allows(access, currentAdmin as ConsoleAdmin, 'write');
  const fields = spec.fields ?? {};
  const column = spec.schoolColumn ?? 'school_id';
  const reload = async (context: ActionContext, id: string | number) => {
    const record = await context.resource.findOne(id as never, context);
    if (!record) throw new NotFoundError(`${spec.noun} not found`, 'Action#handler');
    return record;
  };

  return {
    list: { isAccessible: canRead, ...(spec.quickSearch ? { component: 'QuickSearchList', custom: { searchHint: spec.quickSearch.hint } } : {}) },
    search: { isAccessible: canRead },
    show: { isAccessible: canRead },
    new: {
      ...(spec.newForm ? { component: 'NewWithSecret', custom: spec.newForm } : {}),
      isAccessible: (c) => !!(spec.create || (spec.createSchool && isPlatformAdmin(c.currentAdmin as ConsoleAdmin))) && canWrite(c),
      handler: run<RecordActionResponse>(async (request, context, admin) => {
        if (request.method !== 'post') throw new ConsoleAppError('Submit the form to create a record');
        const input = formInput(request.payload, fields);
        const created: { id: number | string; secret?: OneTimeSecret } = spec.createSchool
          ? await spec.createSchool(ctx, input)
          : await spec.create!(ctx, await creatorPrincipal(admin, request.payload), input);
        const record = await reload(context, created.id);
        return {
          record: record.toJSON(context.currentAdmin),
          redirectUrl: context.h.recordActionUrl({ resourceId: resourceId(context), recordId: String(created.id), actionName: 'show' }),
          notice: { message: `${spec.noun} created`, type: 'success' },
          ...(created.secret ? { secret: created.secret } : {}),
        };
      }),
    },
    edit: {
      isAccessible: (c) => !!spec.update && canWrite(c),
      handler: run<RecordActionResponse>(async (request, context, admin) => {
        const record = context.record!;
        if (request.method !== 'post') return { record: record.toJSON(context.currentAdmin) };
        // A school's id is text: the service of a school-keyed resource finds it through the principal.
        const id = record.id();
        await spec.update!(ctx, recordPrincipal(admin, record, column), Number(id), formInput(request.payload, fields, record));
        const fresh = await reload(context, id);
        return {
          record: fresh.toJSON(context.currentAdmin),
          redirectUrl: context.h.recordActionUrl({ resourceId: resourceId(context), recordId: String(id), actionName: 'show' }),
          notice: { message: `${spec.noun} saved`, type: 'success' },
        };
      }),
    },
    delete: {
      isAccessible: (c) => !!spec.remove && canWrite(c),
      handler: run<RecordActionResponse>(async (request, context, admin) => {
        const record = context.record!;
        if (request.method !== 'post') return { record: record.toJSON(context.currentAdmin) };
        await spec.remove!(ctx, recordPrincipal(admin, record, column), Number(record.id()));
        return {
          record: record.toJSON(context.currentAdmin),
          redirectUrl: context.h.resourceUrl({ resourceId: resourceId(context) }),
          notice: { message: `${spec.noun} deleted`, type: 'success' },
        };
      }),
    },
    bulkDelete: {
      isAccessible: (c) => !!spec.remove && canWrite(c),
      handler: run(async (request, context, admin) => {
        const records = context.records ?? [];
        if (request.method !== 'post') return { records: records.map((r) => r.toJSON(context.currentAdmin)) };
        // One by one through the service, so each record gets the same checks as a single delete.
        const refused: string[] = [];
        for (const record of records) {
          try {
            await spec.remove!(ctx, recordPrincipal(admin, record, column), Number(record.id()));
          } catch (err) {
            if (!(err instanceof AppError)) throw err;
            refused.push(`#${record.id()}: ${err.message}`);
          }
        }
        const done = records.length - refused.length;
        return {
          records: records.map((r) => r.toJSON(context.currentAdmin)),
          redirectUrl: context.h.resourceUrl({ resourceId: resourceId(context) }),
          notice: refused.length
            ? { message: `${done} deleted; refused ${refused.join('; ')}`, type: 'error' }
            : { message: `${done} ${spec.noun.toLowerCase()} record(s) deleted`, type: 'success' },
        };
      }),
    },
  };
}

/** A value shown once, in the action's answer only: never in a notice, a URL, a record's params or a log line. */
export interface OneTimeSecret {
  label: string;
  value: string;
}
