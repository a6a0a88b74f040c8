import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { bool, date, flag, json, modelOptions, pk, ref, schoolId, str, text, timestamps } from './columns.js';

export const noticeTypes = ['holiday', 'event', 'meeting', 'exam', 'fee', 'general'] as const;

export class Notice extends Model<InferAttributes<Notice>, InferCreationAttributes<Notice>> {
  declare id: CreationOptional<number>;
  declare school_id: string;
  declare notice_title: string;
  declare notice_desc: CreationOptional<string | null>;
  declare notice_type: CreationOptional<string | null>;
  declare is_important: CreationOptional<boolean>;
  declare created_by_type: CreationOptional<'admin' | 'staff' | null>;
  declare created_by_id: CreationOptional<number | null>;
  declare notice_deleted: CreationOptional<number>;
  /** 0: the whole school; 1: its audience_targets rows say who. */
  declare audience_scope: CreationOptional<number>;
  /** A scheduled notice publishes itself then; until then it is not on the parents' board. */
  declare publish_at: CreationOptional<Date | null>;
  /** Pushed past the parents' preferences and quiet hours, and listed before every other notice. */
  declare is_urgent: CreationOptional<boolean>;
  /** When it was first published (its push went out then); never moved afterwards. */
  declare published_at: CreationOptional<Date | null>;
  /** The last reminder to its unread families: at most one an hour. */
  declare reminded_at: CreationOptional<Date | null>;
  /** Its form, when it has one. */
  declare form_id: CreationOptional<number | null>;
  /** The ids of its attachments, in order; null for none. */
  declare attachment_ids: CreationOptional<number[] | null>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    Notice.init(
      {
        id: pk(), school_id: schoolId(), notice_title: str(200), notice_desc: text(), notice_type: str(32, true), is_important: bool(false),
        created_by_type: str(10, true), created_by_id: ref(true), notice_deleted: flag(0), audience_scope: flag(0), publish_at: date(), is_urgent: bool(false), published_at: date(), reminded_at: date(), form_id: ref(true), attachment_ids: json('attachment_ids'), ...timestamps(),
      },
      {
        sequelize, tableName: 'notices', modelName: 'Notice', ...modelOptions,
        indexes: [
          { name: 'notices_board', fields: ['school_id', 'notice_deleted', 'is_important', 'created_at', 'id'] },
          { name: 'notices_board_urgent', fields: ['school_id', 'notice_deleted', 'is_urgent', 'is_important', 'created_at', 'id', 'audience_scope', 'published_at'] },
          { name: 'notices_due', fields: ['published_at', 'publish_at'] },
          { name: 'notices_board_type', fields: ['school_id', 'notice_deleted', 'notice_type', 'is_important', 'created_at', 'id'] },
        ],
      },
    );
  }
}
