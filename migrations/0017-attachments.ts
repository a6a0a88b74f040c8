import { DataTypes, type Sequelize } from 'sequelize';

/**
 * Attachments: one row per uploaded file (its thumbnail beside it in the store), the item it is
 * attached to once it is, and a tombstone (`deleted_at`) while its files wait to leave the store.
 * Each school's storage use is counted on its row against its limit, and each parent's uploads not
 * yet attached on theirs, so that both limits hold by one conditional update under concurrent uploads.
 */
export const name = '0017-attachments';

export async function up(sequelize: Sequelize): Promise<void> {
  const qi = sequelize.getQueryInterface();
  await qi.createTable('attachments', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    school_id: { type: DataTypes.STRING(64), allowNull: false },
    uploader_type: { type: DataTypes.STRING(10), allowNull: false },
    uploader_id: { type: DataTypes.INTEGER, allowNull: false },
    name: { type: DataTypes.STRING(255), allowNull: false },
    content_type: { type: DataTypes.STRING(40), allowNull: false },
    size: { type: DataTypes.INTEGER, allowNull: false },
    width: { type: DataTypes.INTEGER, allowNull: true },
    height: { type: DataTypes.INTEGER, allowNull: true },
    sha256: { type: DataTypes.STRING(64), allowNull: false },
    thumbnail_size: { type: DataTypes.INTEGER, allowNull: true },
    thumbnail_sha256: { type: DataTypes.STRING(64), allowNull: true },
    storage_key: { type: DataTypes.STRING(200), allowNull: false },
    entity_type: { type: DataTypes.STRING(20), allowNull: true },
    entity_id: { type: DataTypes.INTEGER, allowNull: true },
    deleted_at: { type: DataTypes.DATE(3), allowNull: true },
    created_at: { type: DataTypes.DATE(3), allowNull: false },
    updated_at: { type: DataTypes.DATE(3), allowNull: false },
  });
  await qi.addIndex('attachments', ['school_id', 'entity_type', 'entity_id'], { name: 'attachments_entity' });
  await qi.addIndex('attachments', ['school_id', 'uploader_type', 'uploader_id', 'entity_id'], { name: 'attachments_uploader' });
  // The maintenance job's two walks: uploads left unattached, and tombstones whose files wait to be removed.
  await qi.addIndex('attachments', ['entity_id', 'deleted_at', 'created_at'], { name: 'attachments_unattached' });
  await qi.addIndex('attachments', ['deleted_at'], { name: 'attachments_deleted' });
  await qi.addColumn('schools', 'storage_limit_mb', { type: DataTypes.INTEGER, allowNull: false, defaultValue: 5120 });
  await qi.addColumn('schools', 'storage_used_bytes', { type: DataTypes.BIGINT, allowNull: false, defaultValue: 0 });
  await qi.addColumn('parents', 'unattached_upload_bytes', { type: DataTypes.BIGINT, allowNull: false, defaultValue: 0 });
}

export async function down(sequelize: Sequelize): Promise<void> {
  const qi = sequelize.getQueryInterface();
  await qi.removeColumn('parents', 'unattached_upload_bytes');
  await qi.removeColumn('schools', 'storage_used_bytes');
  await qi.removeColumn('schools', 'storage_limit_mb');
  await qi.dropTable('attachments');
}
