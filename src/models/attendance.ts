import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { day, modelOptions, pk, ref, schoolId, str, timestamps } from './columns.js';

export const attendanceStatuses = ['present', 'absent', 'late', 'excused'] as const;
export type AttendanceStatus = (typeof attendanceStatuses)[number];

export class Attendance extends Model<InferAttributes<Attendance>, InferCreationAttributes<Attendance>> {
  declare id: CreationOptional<number>;
  declare school_id: string;
  declare student_id: number;
  declare date: string;
  declare status: AttendanceStatus;
  declare marked_by_staff_id: CreationOptional<number | null>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    Attendance.init(
      {
        id: pk(), school_id: schoolId(), student_id: ref(), date: day(false), status: str(10), marked_by_staff_id: ref(true), ...timestamps(),
      },
      {
        sequelize, tableName: 'attendance', modelName: 'Attendance', ...modelOptions,
        indexes: [
          { name: 'attendance_one_mark_uq', unique: true, fields: ['school_id', 'student_id', 'date'] },
          { name: 'attendance_school_date', fields: ['school_id', 'date'] },
        ],
      },
    );
  }
}
