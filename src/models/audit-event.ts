import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { date, longJson, str } from './columns.js';

export const actorTypes = ['parent', 'staff', 'admin', 'operator', 'system'] as const;
export type ActorType = (typeof actorTypes)[number];
export const doors = ['api', 'console', 'cli', 'job'] as const;
export type Door = (typeof doors)[number];
export const auditEntityTypes = [
  'school', 'admin_user', 'designation', 'grade', 'group', 'staff', 'student', 'parent', 'admission', 'activity', 'noticeboard', 'form', 'form_response', 'write_to', 'comment',
  'reaction', 'diary', 'attendance', 'session', 'notification', 'preference', 'webhook', 'import', 'attachment',
] as const;
export type AuditEntityType = (typeof auditEntityTypes)[number];

/** One audited change, sign-in or lock-out (CONTRACT.md section 21). Rows are only ever added, and blanked by an erasure. */
export class AuditEvent extends Model<InferAttributes<AuditEvent>, InferCreationAttributes<AuditEvent>> {
  declare id: CreationOptional<number>;
  declare school_id: string | null;
  declare at: Date;
  declare actor_type: ActorType;
  declare actor_id: string | null;
  declare actor_name: string | null;
  declare door: Door;
  declare action: string;
  declare entity_type: AuditEntityType;
  declare entity_id: string | null;
  declare changes: Record<string, [unknown, unknown]> | null;
  declare ip: string | null;
  declare request_id: string | null;

  static initModel(sequelize: Sequelize) {
    AuditEvent.init(
      {
        id: { type: DataTypes.BIGINT, autoIncrement: true, primaryKey: true },
        school_id: str(64, true), at: date(false), actor_type: str(10), actor_id: str(64, true), actor_name: str(200, true), door: str(8), action: str(64),
        entity_type: str(20), entity_id: str(64, true), changes: longJson('changes'), ip: str(64, true), request_id: str(128, true),
      },
      { sequelize, tableName: 'audit_events', modelName: 'AuditEvent', timestamps: false },
    );
  }
}
