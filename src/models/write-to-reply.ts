import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { DataTypes } from 'sequelize';
import { json, pk, ref, schoolId, str, text } from './columns.js';

/** Who wrote a reply: the thread's parent, a staff member, or an admin user of the school. */
export const replyAuthors = ['parent', 'staff', 'admin'] as const;
export type ReplyAuthor = (typeof replyAuthors)[number];

export class WriteToReply extends Model<InferAttributes<WriteToReply>, InferCreationAttributes<WriteToReply>> {
  declare id: CreationOptional<number>;
  declare school_id: string;
  declare write_to_id: number;
  declare author_type: ReplyAuthor;
  declare author_id: number;
  declare author_name: string | null;
  declare message: string;
  /** The ids of its attachments, in order; null for none. */
  declare attachment_ids: CreationOptional<number[] | null>;
  declare created_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    WriteToReply.init(
      {
        id: pk(), school_id: schoolId(), write_to_id: ref(), author_type: str(10), author_id: ref(), author_name: str(120, true),
        message: text(false), attachment_ids: json('attachment_ids'), created_at: { type: DataTypes.DATE(3), allowNull: false },
      },
      {
        sequelize, tableName: 'write_to_replies', modelName: 'WriteToReply', underscored: true, timestamps: true, createdAt: 'created_at', updatedAt: false,
        indexes: [{ name: 'write_to_replies_thread', fields: ['school_id', 'write_to_id', 'id'] }],
      },
    );
  }
}
