import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { date, modelOptions, pk, ref, schoolId, str, timestamps } from './columns.js';

export const attachmentUploaderTypes = ['parent', 'staff', 'admin'] as const;
export type AttachmentUploaderType = (typeof attachmentUploaderTypes)[number];
/** What an attachment can be attached to: the items of CONTRACT.md section 25. */
export const attachmentEntityTypes = ['activity', 'noticeboard', 'diary', 'write_to', 'write_to_reply'] as const;
export type AttachmentEntityType = (typeof attachmentEntityTypes)[number];

/**
 * An uploaded file: an image rebuilt without its metadata (with a thumbnail beside it in the store)
 * or a PDF as uploaded. Unattached until an item names it; `deleted_at` marks a tombstone whose
 * files are still to be removed from the store.
 */
export class Attachment extends Model<InferAttributes<Attachment>, InferCreationAttributes<Attachment>> {
  declare id: CreationOptional<number>;
  declare school_id: string;
  declare uploader_type: AttachmentUploaderType;
  declare uploader_id: number;
  declare name: string;
  declare content_type: string;
  declare size: number;
  declare width: number | null;
  declare height: number | null;
  /** Of the stored bytes: the strong ETag of every URL of the file. */
  declare sha256: string;
  declare thumbnail_size: number | null;
  declare thumbnail_sha256: string | null;
  /** The file's key in the store; its thumbnail's is this key with `.thumb` added. */
  declare storage_key: string;
  declare entity_type: AttachmentEntityType | null;
  declare entity_id: number | null;
  declare deleted_at: CreationOptional<Date | null>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    Attachment.init(
      {
        id: pk(), school_id: schoolId(), uploader_type: str(10), uploader_id: ref(), name: str(255), content_type: str(40),
        size: { type: DataTypes.INTEGER, allowNull: false }, width: ref(true), height: ref(true), sha256: str(64),
        thumbnail_size: ref(true), thumbnail_sha256: str(64, true), storage_key: str(200), entity_type: str(20, true), entity_id: ref(true),
        deleted_at: date(), ...timestamps(),
      },
      {
        sequelize, tableName: 'attachments', modelName: 'Attachment', ...modelOptions,
        indexes: [
          { name: 'attachments_entity', fields: ['school_id', 'entity_type', 'entity_id'] },
          { name: 'attachments_uploader', fields: ['school_id', 'uploader_type', 'uploader_id', 'entity_id'] },
          { name: 'attachments_unattached', fields: ['entity_id', 'deleted_at', 'created_at'] },
          { name: 'attachments_deleted', fields: ['deleted_at'] },
        ],
      },
    );
  }
}
