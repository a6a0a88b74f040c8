import { DataTypes, type Model, type ModelAttributeColumnOptions, type ModelStatic } from 'sequelize';

/** Column shapes shared by the models, so every tenant table spells `school_id` and its keys the same way. */
export const pk = (): ModelAttributeColumnOptions => ({ type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true });
export const schoolId = (allowNull = false): ModelAttributeColumnOptions => ({ type: DataTypes.STRING(64), allowNull });
export const ref = (allowNull = false): ModelAttributeColumnOptions => ({ type: DataTypes.INTEGER, allowNull });
export const str = (length: number, allowNull = false, defaultValue?: string): ModelAttributeColumnOptions => ({
  type: DataTypes.STRING(length),
  allowNull,
  ...(defaultValue !== undefined ? { defaultValue } : {}),
});
export const text = (allowNull = true): ModelAttributeColumnOptions => ({ type: DataTypes.TEXT, allowNull });
/**
 * MEDIUMTEXT on MySQL (16 MiB) for a column whose value the contract's limits let grow past the 65,535
 * bytes of a TEXT, which strict mode refuses: a form's definition and counts, its answers, an audited
 * change, a webhook's body. SQLite has one TEXT of any length. Migration 0023 made the columns so.
 */
export const longText = (allowNull = true): ModelAttributeColumnOptions => ({ type: DataTypes.TEXT('medium'), allowNull });
export const flag = (defaultValue = 0): ModelAttributeColumnOptions => ({ type: DataTypes.SMALLINT, allowNull: false, defaultValue });
export const bool = (defaultValue = false): ModelAttributeColumnOptions => ({ type: DataTypes.BOOLEAN, allowNull: false, defaultValue });
export const date = (allowNull = true): ModelAttributeColumnOptions => ({ type: DataTypes.DATE(3), allowNull });
export const day = (allowNull = true): ModelAttributeColumnOptions => ({ type: DataTypes.DATEONLY, allowNull });
export const timestamps = () => ({
  created_at: { type: DataTypes.DATE(3), allowNull: false },
  updated_at: { type: DataTypes.DATE(3), allowNull: false },
});

/** A TEXT column holding JSON, parsed on read: MariaDB's JSON type comes back as a string, so both databases store text. */
export const json = (name: string, allowNull = true): ModelAttributeColumnOptions => ({
  type: DataTypes.TEXT,
  allowNull,
  get(this: { getDataValue(k: string): unknown }) {
    const v = this.getDataValue(name);
    return typeof v === 'string' ? JSON.parse(v) : (v ?? null);
  },
  set(this: { setDataValue(k: string, v: unknown): void }, value: unknown) {
    this.setDataValue(name, value == null ? null : JSON.stringify(value));
  },
});
/** A json() column in a MEDIUMTEXT (see longText). */
export const longJson = (name: string, allowNull = true): ModelAttributeColumnOptions => ({ ...json(name, allowNull), type: DataTypes.TEXT('medium') });

const jsonColumns = new WeakMap<ModelStatic<Model>, string[]>();
/** A model's json() columns: raw rows (and an instance's previous values) hold their text, not the value. */
export function jsonColumnsOf(model: ModelStatic<Model>): string[] {
  let names = jsonColumns.get(model);
  if (!names) {
    names = Object.entries(model.getAttributes()).filter(([, a]) => a.type instanceof DataTypes.TEXT && typeof a.get === 'function').map(([name]) => name);
    jsonColumns.set(model, names);
  }
  return names;
}

export const modelOptions = { underscored: true, timestamps: true, createdAt: 'created_at', updatedAt: 'updated_at' } as const;
