import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { modelOptions, pk, ref, schoolId, timestamps } from './columns.js';

/** Which students a staff member teaches: the source of "students assigned to the caller". */
export class StaffStudent extends Model<InferAttributes<StaffStudent>, InferCreationAttributes<StaffStudent>> {
  declare id: CreationOptional<number>;
  declare school_id: string;
  declare staff_id: number;
  declare student_id: number;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    StaffStudent.init(
      { id: pk(), school_id: schoolId(), staff_id: ref(), student_id: ref(), ...timestamps() },
      {
        sequelize, tableName: 'staff_students', modelName: 'StaffStudent', ...modelOptions,
        indexes: [
          { name: 'staff_students_uq', unique: true, fields: ['school_id', 'staff_id', 'student_id'] },
          { name: 'staff_students_student', fields: ['school_id', 'student_id'] },
        ],
      },
    );
  }
}
