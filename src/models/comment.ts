import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { flag, modelOptions, pk, ref, schoolId, str, text, timestamps } from './columns.js';

export const entityTypes = ['activity', 'diary', 'write_to', 'noticeboard'] as const;
export type EntityType = (typeof entityTypes)[number];

export class Comment extends Model<InferAttributes<Comment>, InferCreationAttributes<Comment>> {
  declare id: CreationOptional<number>;
  declare school_id: string;
  declare entity_type: EntityType;
  declare entity_id: number;
  declare parent_id: number;
  declare content: string;
  declare deleted_status: CreationOptional<number>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    Comment.init(
      {
        id: pk(), school_id: schoolId(), entity_type: str(16), entity_id: ref(), parent_id: ref(), content: text(false),
        deleted_status: flag(0), ...timestamps(),
      },
      {
        sequelize, tableName: 'comments', modelName: 'Comment', ...modelOptions,
        indexes: [{ name: 'comments_entity', fields: ['school_id', 'entity_type', 'entity_id', 'deleted_status', 'created_at'] }],
      },
    );
  }
}
