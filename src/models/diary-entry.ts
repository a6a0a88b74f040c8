import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { day, flag, json, modelOptions, pk, ref, schoolId, str, text, timestamps } from './columns.js';

/** Homework and class notes, aimed at a grade or at one student. */
export class DiaryEntry extends Model<InferAttributes<DiaryEntry>, InferCreationAttributes<DiaryEntry>> {
  declare id: CreationOptional<number>;
  declare school_id: string;
  declare staff_id: number;
  declare grade: string | null;
  declare student_id: number | null;
  declare title: string;
  declare description: CreationOptional<string | null>;
  declare due_date: CreationOptional<string | null>;
  declare deleted_status: CreationOptional<number>;
  /** The ids of its attachments, in order; null for none. */
  declare attachment_ids: CreationOptional<number[] | null>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    DiaryEntry.init(
      {
        id: pk(), school_id: schoolId(), staff_id: ref(), grade: str(60, true), student_id: ref(true), title: str(200), description: text(),
        due_date: day(), deleted_status: flag(0), attachment_ids: json('attachment_ids'), ...timestamps(),
      },
      {
        sequelize, tableName: 'diary_entries', modelName: 'DiaryEntry', ...modelOptions,
        indexes: [
          { name: 'diary_grade', fields: ['school_id', 'grade', 'deleted_status', 'created_at'] },
          { name: 'diary_student', fields: ['school_id', 'student_id', 'deleted_status', 'created_at'] },
          { name: 'diary_staff', fields: ['school_id', 'staff_id'] },
        ],
      },
    );
  }
}
