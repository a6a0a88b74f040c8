import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { modelOptions, pk, ref, schoolId, str, timestamps } from './columns.js';

/** A parent's calendar subscription: the URL's token is kept only as its SHA-256, one per parent. */
export class CalendarFeed extends Model<InferAttributes<CalendarFeed>, InferCreationAttributes<CalendarFeed>> {
  declare id: CreationOptional<number>;
  declare school_id: string;
  declare parent_id: number;
  declare token_hash: string;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    CalendarFeed.init(
      { id: pk(), school_id: schoolId(), parent_id: ref(), token_hash: str(64), ...timestamps() },
      {
        sequelize, tableName: 'calendar_feeds', modelName: 'CalendarFeed', ...modelOptions,
        indexes: [
          { name: 'calendar_feeds_parent_uq', unique: true, fields: ['school_id', 'parent_id'] },
          { name: 'calendar_feeds_token_uq', unique: true, fields: ['token_hash'] },
        ],
      },
    );
  }
}
