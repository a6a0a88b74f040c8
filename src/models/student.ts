import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize, type UpdateOptions } from 'sequelize';
import { date, day, modelOptions, pk, ref, schoolId, str, timestamps } from './columns.js';

export const studentStatuses = ['registered', 'active', 'inactive', 'archived'] as const;
export type StudentStatus = (typeof studentStatuses)[number];

export class Student extends Model<InferAttributes<Student>, InferCreationAttributes<Student>> {
  declare id: CreationOptional<number>;
  declare school_id: string;
  declare parent_id: number | null;
  declare student_full_name: string;
  declare gender: string | null;
  declare grade: string;
  declare date_of_birth: string | null;
  declare blood_group: string | null;
  /** The guardian's phone: links the student to the parent account of that phone in the school. */
  declare phone_no: string | null;
  declare roll_no: string;
  declare status: CreationOptional<StudentStatus>;
  /** When the student was last archived: the retention period counts from it. */
  declare archived_at: CreationOptional<Date | null>;
  declare erased_at: CreationOptional<Date | null>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    Student.init(
      {
        id: pk(), school_id: schoolId(), parent_id: ref(true), student_full_name: str(120), gender: str(20, true), grade: str(60),
        date_of_birth: day(), blood_group: str(8, true), phone_no: str(20, true), roll_no: str(32),
        status: str(16, false, 'registered'), archived_at: date(), erased_at: date(), ...timestamps(),
      },
      {
        sequelize, tableName: 'students', modelName: 'Student', ...modelOptions,
        hooks: { beforeCreate: stampArchived, beforeUpdate: stampArchived, beforeBulkUpdate: stampArchivedInBulk },
        indexes: [
          { name: 'students_school_roll_uq', unique: true, fields: ['school_id', 'roll_no'] },
          { name: 'students_school_parent', fields: ['school_id', 'parent_id'] },
          { name: 'students_school_status', fields: ['school_id', 'status', 'id'] },
          { name: 'students_school_grade', fields: ['school_id', 'grade', 'status'] },
          { name: 'students_school_name', fields: ['school_id', 'student_full_name'] },
          { name: 'students_school_search', fields: ['school_id', 'status', 'student_full_name', 'roll_no'] },
        ],
      },
    );
  }
}

/** Whichever door moves a student into or out of `archived`, the time is kept with it. */
function stampArchived(student: Student): void {
  if (student.changed('status') || student.isNewRecord) student.archived_at = student.status === 'archived' ? new Date() : null;
}

/**
 * The same for `Student.update(...)`, which runs no instance hook. It cannot see each row's old
 * status, so it stamps every row it matches: a bulk archive matches only rows not yet archived.
 */
function stampArchivedInBulk(options: UpdateOptions<InferAttributes<Student>> & { attributes?: Partial<InferAttributes<Student>> }): void {
  const status = options.attributes?.status;
  if (status === undefined) return;
  options.attributes!.archived_at = status === 'archived' ? new Date() : null;
  // Sequelize picked the columns to write before this hook ran.
  if (Array.isArray(options.fields) && !options.fields.includes('archived_at')) options.fields.push('archived_at');
}
