import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { date, modelOptions, pk, ref, schoolId, str, timestamps } from './columns.js';

/** One part of an item's audience: a named student, a grade or a group (exactly one of the three). */
export class AudienceTarget extends Model<InferAttributes<AudienceTarget>, InferCreationAttributes<AudienceTarget>> {
  declare id: CreationOptional<number>;
  declare school_id: string;
  /** `activity` or `noticeboard`, as the engagement routes name them. */
  declare entity_type: string;
  declare entity_id: number;
  declare student_id: CreationOptional<number | null>;
  declare grade: CreationOptional<string | null>;
  declare group_id: CreationOptional<number | null>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    AudienceTarget.init(
      { id: pk(), school_id: schoolId(), entity_type: str(20), entity_id: ref(), student_id: ref(true), grade: str(60, true), group_id: ref(true), ...timestamps() },
      {
        sequelize, tableName: 'audience_targets', modelName: 'AudienceTarget', ...modelOptions,
        indexes: [
          { name: 'audience_targets_entity', fields: ['school_id', 'entity_type', 'entity_id'] },
          { name: 'audience_targets_student', fields: ['school_id', 'entity_type', 'student_id', 'entity_id'] },
          { name: 'audience_targets_grade', fields: ['school_id', 'entity_type', 'grade', 'entity_id'] },
          { name: 'audience_targets_group', fields: ['school_id', 'entity_type', 'group_id', 'entity_id'] },
        ],
      },
    );
  }
}

/** A parent's first read of an item (an activity, a notice, a diary entry): kept, never moved. */
export class Read extends Model<InferAttributes<Read>, InferCreationAttributes<Read>> {
  declare id: CreationOptional<number>;
  declare school_id: string;
  declare entity_type: string;
  declare entity_id: number;
  declare parent_id: number;
  declare read_at: Date;

  static initModel(sequelize: Sequelize) {
    Read.init(
      { id: pk(), school_id: schoolId(), entity_type: str(20), entity_id: ref(), parent_id: ref(), read_at: date(false) },
      {
        sequelize, tableName: 'item_reads', modelName: 'Read', timestamps: false, underscored: true,
        indexes: [{ name: 'item_reads_uq', unique: true, fields: ['school_id', 'entity_type', 'entity_id', 'parent_id'] }],
      },
    );
  }
}
