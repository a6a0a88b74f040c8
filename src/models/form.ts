import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { bool, date, longJson, modelOptions, pk, ref, schoolId, str, timestamps } from './columns.js';

export const formItemTypes = ['activity', 'noticeboard'] as const;
export type FormItemType = (typeof formItemTypes)[number];

export const questionTypes = ['consent', 'choice', 'text', 'number'] as const;
export type QuestionType = (typeof questionTypes)[number];

export interface FormOption {
  id: string;
  label: string;
  capacity?: number;
}

/** A question as stored: defaults filled in (`required`; `multiple` on a choice), the rest only when given. */
export interface FormQuestion {
  id: string;
  type: QuestionType;
  label: string;
  required: boolean;
  options?: FormOption[];
  multiple?: boolean;
  min?: number;
  max?: number;
}

/** Per choice question, how many responses chose each of its options. */
export type OptionCounts = Record<string, Record<string, number>>;

/** An answer as stored: a consent or an option id, several option ids, a text or a number. */
export type Answer = string | string[] | number;

/** A permission slip, sign-up or RSVP on an activity or a notice: one per item. */
export class Form extends Model<InferAttributes<Form>, InferCreationAttributes<Form>> {
  declare id: CreationOptional<number>;
  declare school_id: string;
  declare entity_type: FormItemType;
  declare entity_id: number;
  declare questions: FormQuestion[];
  declare due_at: CreationOptional<Date | null>;
  /** One response per child of the audience (true) or per family. */
  declare per_student: CreationOptional<boolean>;
  /** A family may change its response until the form closes. */
  declare editable: CreationOptional<boolean>;
  /** Set by a close, which is final. */
  declare closed_at: CreationOptional<Date | null>;
  /** Written by the responses only, under a lock on this row. */
  declare counts: OptionCounts;
  declare response_count: CreationOptional<number>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    Form.init(
      {
        id: pk(), school_id: schoolId(), entity_type: str(20), entity_id: ref(), questions: longJson('questions', false), due_at: date(), per_student: bool(true),
        editable: bool(true), closed_at: date(), counts: longJson('counts', false), response_count: { ...ref(), defaultValue: 0 }, ...timestamps(),
      },
      {
        sequelize, tableName: 'forms', modelName: 'Form', ...modelOptions,
        indexes: [{ name: 'forms_item_uq', unique: true, fields: ['school_id', 'entity_type', 'entity_id'] }],
      },
    );
  }
}

/** A family's answers to a form, for one child or for the family: one each, held by the unique key on `respondent`. */
export class FormResponse extends Model<InferAttributes<FormResponse>, InferCreationAttributes<FormResponse>> {
  declare id: CreationOptional<number>;
  declare school_id: string;
  declare form_id: number;
  declare parent_id: number;
  /** Null on a per-family form. */
  declare student_id: number | null;
  /** `student:<id>` or `parent:<id>`: who may answer once. */
  declare respondent: string;
  declare answers: Record<string, Answer>;
  declare signature: CreationOptional<string | null>;
  declare signed_at: CreationOptional<Date | null>;
  /** Of the request that last wrote it. */
  declare ip: CreationOptional<string | null>;
  declare user_agent: CreationOptional<string | null>;
  declare submitted_at: Date;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    FormResponse.init(
      {
        id: pk(), school_id: schoolId(), form_id: ref(), parent_id: ref(), student_id: ref(true), respondent: str(24), answers: longJson('answers', false),
        signature: str(120, true), signed_at: date(), ip: str(64, true), user_agent: str(512, true), submitted_at: date(false), ...timestamps(),
      },
      {
        sequelize, tableName: 'form_responses', modelName: 'FormResponse', ...modelOptions,
        indexes: [
          { name: 'form_responses_one_uq', unique: true, fields: ['school_id', 'form_id', 'respondent'] },
          { name: 'form_responses_form', fields: ['school_id', 'form_id', 'submitted_at', 'id'] },
          { name: 'form_responses_parent', fields: ['school_id', 'parent_id', 'form_id'] },
          { name: 'form_responses_student', fields: ['school_id', 'student_id'] },
        ],
      },
    );
  }
}
