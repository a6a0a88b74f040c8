import { Resource as SequelizeResource } from '@adminjs/sequelize';
import { BaseRecord, ForbiddenError, type ActionContext, type BaseProperty, type Filter } from 'adminjs';
import { Op, Sequelize, type Model, type ModelStatic, type Order, type WhereOptions } from 'sequelize';
import { isPlatformAdmin, type ConsoleAdmin } from './auth.js';

export interface ScopeSpec {
  /** The column that names the record's school: school_id, or id for the schools table itself. */
  schoolColumn: 'school_id' | 'id';
  /** The soft-delete column (0 = live, anything else deleted): such rows are hidden unless a super_admin filters for them. */
  softDelete?: string;
  /** Hashes, tokens and device addresses: never read, shown, filtered on, sorted by or written. */
  secret?: string[];
  /** The resource's id when a model backs two resources (the schools, and a school's own settings). */
  resourceId?: string;
  /** Fields shown as `text` on the rows where `applies` holds (and never filtered on or sorted by). */
  conceal?: { fields: readonly string[]; applies: (row: Record<string, unknown>) => boolean; text: string };
  /** Add values kept outside the row (an item's audience, the names of what it points at) to the rows read, each in one go per read. */
  enrich?: Enricher[];
  /** What the list's quick search box (the filter `q`) looks in: a case-insensitive part of any of these columns, or a term of its own. */
  quickSearch?: Array<string | QuickSearchTerm>;
}

/** A quick search that is not one column of the row (a notification's recipient by name). */
export interface QuickSearchTerm {
  label: string;
  /** The condition for the lowercased words typed; they are given as typed, so the term escapes them. */
  where: (words: string) => WhereOptions;
}

/**
 * Adds values to the rows read for an admin: `detail` is true when one record is read for its page
 * (show, edit, a record action), so what only a page shows is read only then.
 */
export type Enricher = (rows: Array<Record<string, unknown>>, admin: ConsoleAdmin, detail: boolean) => Promise<void>;

type FindOptions = { limit?: number; offset?: number; sort?: { sortBy?: string; direction?: 'asc' | 'desc' } };

/** The admin behind an action; without one nothing is read (fail closed). */
export function consoleAdminOf(context: ActionContext | undefined): ConsoleAdmin {
  const admin = context?.currentAdmin as ConsoleAdmin | undefined;
  if (!admin?.role || (!admin.schoolId && !isPlatformAdmin(admin))) throw new ForbiddenError('Sign in to the console first');
  return admin;
}

/** super_admin and the operator may look at soft-deleted rows (by filtering for them); admin never does. */
export const seesDeleted = (admin: ConsoleAdmin) => admin.role === 'super_admin' || isPlatformAdmin(admin);

/**
 * The tenant scoping of the console, in one place: every read and write AdminJS makes goes through
 * this adapter, which adds the admin's school to the query (list, search, reference pickers, filter
 * population, show, edit, delete, bulk actions, record actions), so another school's record is
 * simply not found. Secret columns are cut from the resource itself, so AdminJS never sees them.
 * Records change only through the services (the resource's actions): direct writes are refused.
 */
export class ScopedResource extends SequelizeResource {
  private readonly secret: Set<string>;

  constructor(
    readonly model: ModelStatic<Model>,
    readonly spec: ScopeSpec,
  ) {
    super(model as never);
    this.secret = new Set(spec.secret ?? []);
  }

  override id(): string {
    return this.spec.resourceId ?? super.id();
  }

  override properties(): BaseProperty[] {
    return super.properties().filter((p) => !this.secret.has(p.name()));
  }

  override property(path: string): BaseProperty | null {
    return this.secret.has(path.split('.')[0]!) ? null : super.property(path);
  }

  private concealed(name: string): boolean {
    return this.spec.conceal?.fields.includes(name) ?? false;
  }

  /** Rows read for AdminJS, with the concealed fields replaced where they apply and the enrichment added. */
  private async records(rows: Model[], context: ActionContext | undefined, detail: boolean): Promise<BaseRecord[]> {
    const all = rows.map((row) => row.toJSON() as Record<string, unknown>);
    const conceal = this.spec.conceal;
    for (const params of all) if (conceal?.applies(params)) for (const field of conceal.fields) if (params[field] != null) params[field] = conceal.text;
    if (all.length) for (const enrich of this.spec.enrich ?? []) await enrich(all, consoleAdminOf(context), detail);
    return all.map((params) => new BaseRecord(params, this));
  }

  private attributes() {
    return { exclude: [...this.secret] };
  }

  /** The admin's school, and the soft-delete flag unless deleted rows were asked for and may be seen. */
  private scope(context: ActionContext | undefined, deleted: 'hide' | 'allow' | 'only'): WhereOptions[] {
    const admin = consoleAdminOf(context);
    const where: WhereOptions[] = [];
    if (!isPlatformAdmin(admin)) where.push({ [this.spec.schoolColumn]: admin.schoolId });
    if (this.spec.softDelete) {
      const mode = seesDeleted(admin) ? deleted : 'hide';
      if (mode !== 'allow') where.push({ [this.spec.softDelete]: mode === 'only' ? { [Op.ne]: 0 } : 0 });
    }
    return where;
  }

  /**
   * AdminJS filters as exact matches (ids, numbers, references, values from a list), case-insensitive
   * substrings for free text, and ranges for dates. Unknown and secret properties are ignored.
   */
  private filterWhere(filter: Filter | undefined): { where: WhereOptions[]; deleted: 'hide' | 'only' } {
    const where: WhereOptions[] = [];
    let deleted: 'hide' | 'only' = 'hide';
    for (const element of Object.values(filter?.filters ?? {})) {
      const property = element.property;
      if (!property) {
        if (element.path === 'q') where.push(...this.quickSearch(String(element.value ?? '')));
        continue;
      }
      const name = property.name();
      if (this.concealed(name)) continue;
      const value = element.value;
      if (name === this.spec.softDelete) {
        deleted = String(value) === '1' ? 'only' : 'hide';
        continue;
      }
      const decorated = this.decorate().getPropertyByKey(name);
      const type = decorated?.type() ?? property.type();
      if (typeof value === 'object' && value !== null) {
        const range = value as { from?: string; to?: string };
        const bound = (v: string | undefined) => (v && !Number.isNaN(Date.parse(v)) ? new Date(v) : undefined);
        const from = bound(range.from);
        const to = bound(range.to);
        if ((type === 'date' || type === 'datetime') && (from || to)) {
          where.push({ [name]: { ...(from ? { [Op.gte]: type === 'date' ? range.from!.slice(0, 10) : from } : {}), ...(to ? { [Op.lte]: type === 'date' ? range.to!.slice(0, 10) : to } : {}) } });
        }
        continue;
      }
      const text = String(value);
      if (type === 'boolean') {
        if (text === 'true' || text === 'false') where.push({ [name]: text === 'true' });
      } else if (type === 'number' || type === 'reference' || type === 'float') {
        const n = Number(text);
        // A non-number matches nothing rather than everything.
        where.push(Number.isFinite(n) ? { [name]: n } : Sequelize.literal('1 = 0'));
      } else if (decorated?.availableValues()) {
        // Several values of the list at once (the dashboard's open requests: open or in progress).
        const allowed = decorated.availableValues()!.map((v) => String(v.value));
        const values = text.split(',');
        where.push(values.length > 1 && values.every((v) => allowed.includes(v)) ? { [name]: { [Op.in]: values } } : { [name]: text });
      } else if (property.isId()) {
        where.push({ [name]: text });
      } else if (decorated?.options.custom?.pick && text !== '') {
        // Picked from the school's designations or grades: that one, not every name holding its words ("Class Teacher" for "Teacher").
        where.push(Sequelize.where(Sequelize.fn('lower', Sequelize.col(name)), text.toLowerCase()));
      } else if (text !== '') {
        where.push(Sequelize.where(Sequelize.fn('instr', Sequelize.fn('lower', Sequelize.col(name)), text.toLowerCase()), Op.gt, 0));
      }
    }
    return { where, deleted };
  }

  private quickSearch(text: string): WhereOptions[] {
    const words = text.trim().toLowerCase();
    const terms = this.spec.quickSearch ?? [];
    if (!words || !terms.length) return [];
    return [{ [Op.or]: terms.map((t) => (typeof t === 'string' ? Sequelize.where(Sequelize.fn('instr', Sequelize.fn('lower', Sequelize.col(t)), words), Op.gt, 0) : t.where(words))) }];
  }

  private order(sort: FindOptions['sort']): Order {
    const pk = this.primaryKey();
    const by = sort?.sortBy && !this.concealed(sort.sortBy) && this.property(sort.sortBy)?.isSortable() ? sort.sortBy : pk;
    const direction = sort?.direction === 'asc' ? 'ASC' : 'DESC';
    return by === pk ? [[pk, direction]] : [[by, direction], [pk, direction]];
  }

  private where(filter: Filter | undefined, context: ActionContext | undefined): WhereOptions {
    const { where, deleted } = this.filterWhere(filter);
    return { [Op.and]: [...this.scope(context, deleted), ...where] };
  }

  override async count(filter: Filter, context?: ActionContext): Promise<number> {
    return this.model.count({ where: this.where(filter, context) });
  }

  override async find(filter: Filter, options: FindOptions, context?: ActionContext): Promise<BaseRecord[]> {
    const rows = await this.model.findAll({
      where: this.where(filter, context),
      attributes: this.attributes(),
      // AdminJS passes (page - 1) * perPage as the query gave them (a page of 1e300, a fraction): whole
      // rows, and at most an offset the database takes, past any table's end (an empty page).
      limit: Math.min(Math.max(Math.trunc(Number(options.limit)) || 20, 1), 500),
      offset: Math.min(Math.max(Math.trunc(Number(options.offset)) || 0, 0), Number.MAX_SAFE_INTEGER),
      order: this.order(options.sort),
    });
    return this.records(rows, context, false);
  }

  private byIds(ids: Array<string | number>, context: ActionContext | undefined): WhereOptions {
    const key = this.primaryKey();
    const valid = ids.map(String).filter((id) => (key === 'id' && this.spec.schoolColumn !== 'id' ? /^\d{1,10}$/.test(id) : id.length > 0));
    return { [Op.and]: [{ [key]: valid }, ...this.scope(context, 'allow')] };
  }

  override async findOne(id: string | number, context?: ActionContext): Promise<BaseRecord | null> {
    const row = await this.model.findOne({ where: this.byIds([id], context), attributes: this.attributes() });
    return row ? (await this.records([row], context, true))[0]! : null;
  }

  override async findMany(ids: Array<string | number>, context?: ActionContext): Promise<BaseRecord[]> {
    const rows = await this.model.findAll({ where: this.byIds(ids, context), attributes: this.attributes() });
    return this.records(rows, context, false);
  }

  override async findById(id: string | number): Promise<never> {
    throw new ForbiddenError(`Unscoped read of ${this.id()} #${id} refused`);
  }

  override async populate(): Promise<never> {
    throw new ForbiddenError('Unscoped populate refused');
  }

  override async create(): Promise<never> {
    throw new ForbiddenError('Records are created through their service');
  }

  override async update(): Promise<never> {
    throw new ForbiddenError('Records are changed through their service');
  }

  override async delete(): Promise<never> {
    throw new ForbiddenError('Records are deleted through their service');
  }
}
