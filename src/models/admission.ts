import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { json, modelOptions, pk, ref, schoolId, str, timestamps } from './columns.js';

/** A submitted admission form: the applicant's token (hashed) opens it for review and edits while the student is registered. */
export class Admission extends Model<InferAttributes<Admission>, InferCreationAttributes<Admission>> {
  declare id: CreationOptional<number>;
  declare school_id: string;
  declare student_id: number;
  declare parent_id: number;
  declare token_hash: string;
  declare submitted: Record<string, unknown>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    Admission.init(
      { id: pk(), school_id: schoolId(), student_id: ref(), parent_id: ref(), token_hash: str(64), submitted: json('submitted', false), ...timestamps() },
      {
        sequelize, tableName: 'admissions', modelName: 'Admission', ...modelOptions,
        indexes: [
          { name: 'admissions_school_token_uq', unique: true, fields: ['school_id', 'token_hash'] },
          { name: 'admissions_school_student', fields: ['school_id', 'student_id'] },
        ],
      },
    );
  }
}
