import { DataTypes, type ModelAttributes, type QueryInterface, type Sequelize } from 'sequelize';

/** The initial schema: every table of the contract, with its keys led by school_id. A frozen snapshot: later changes are new migrations. */
export const name = '0001-initial-schema';

const tables: Array<{ name: string; columns: ModelAttributes; indexes: Array<{ name: string; fields: string[]; unique?: boolean }> }> = [
  {
    name: 'schools',
    columns: {
      id: { type: DataTypes.STRING(64), primaryKey: true, allowNull: false },
      name: { type: DataTypes.STRING(200), allowNull: false },
      status: { type: DataTypes.STRING(16), allowNull: false, defaultValue: "active" },
      created_at: { type: DataTypes.DATE(3), allowNull: false },
      updated_at: { type: DataTypes.DATE(3), allowNull: false },
    },
    indexes: [
    ],
  },
  {
    name: 'admin_users',
    columns: {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true, allowNull: false },
      school_id: { type: DataTypes.STRING(64), allowNull: true },
      name: { type: DataTypes.STRING(120), allowNull: false },
      email: { type: DataTypes.STRING(254), allowNull: false },
      password_hash: { type: DataTypes.STRING(100), allowNull: false },
      role: { type: DataTypes.STRING(20), allowNull: false },
      created_at: { type: DataTypes.DATE(3), allowNull: false },
      updated_at: { type: DataTypes.DATE(3), allowNull: false },
    },
    indexes: [
      { name: 'admin_users_email_uq', fields: ['email'], unique: true },
      { name: 'admin_users_school', fields: ['school_id','role'] },
    ],
  },
  {
    name: 'designations',
    columns: {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true, allowNull: false },
      school_id: { type: DataTypes.STRING(64), allowNull: false },
      name: { type: DataTypes.STRING(120), allowNull: false },
      rbac: { type: DataTypes.TEXT, allowNull: false },
      created_at: { type: DataTypes.DATE(3), allowNull: false },
      updated_at: { type: DataTypes.DATE(3), allowNull: false },
    },
    indexes: [
      { name: 'designations_school_name_uq', fields: ['school_id','name'], unique: true },
    ],
  },
  {
    name: 'staff',
    columns: {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true, allowNull: false },
      school_id: { type: DataTypes.STRING(64), allowNull: false },
      name: { type: DataTypes.STRING(120), allowNull: false },
      designation: { type: DataTypes.STRING(120), allowNull: true },
      phone_no: { type: DataTypes.STRING(20), allowNull: false },
      email: { type: DataTypes.STRING(254), allowNull: true },
      pin_hash: { type: DataTypes.STRING(100), allowNull: true },
      rbac: { type: DataTypes.TEXT, allowNull: true },
      status: { type: DataTypes.SMALLINT, allowNull: false, defaultValue: 1 },
      created_at: { type: DataTypes.DATE(3), allowNull: false },
      updated_at: { type: DataTypes.DATE(3), allowNull: false },
    },
    indexes: [
      { name: 'staff_school_phone_uq', fields: ['school_id','phone_no'], unique: true },
      { name: 'staff_school_email_uq', fields: ['school_id','email'], unique: true },
      { name: 'staff_school_status_name', fields: ['school_id','status','name'] },
    ],
  },
  {
    name: 'staff_students',
    columns: {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true, allowNull: false },
      school_id: { type: DataTypes.STRING(64), allowNull: false },
      staff_id: { type: DataTypes.INTEGER, allowNull: false },
      student_id: { type: DataTypes.INTEGER, allowNull: false },
      created_at: { type: DataTypes.DATE(3), allowNull: false },
      updated_at: { type: DataTypes.DATE(3), allowNull: false },
    },
    indexes: [
      { name: 'staff_students_uq', fields: ['school_id','staff_id','student_id'], unique: true },
      { name: 'staff_students_student', fields: ['school_id','student_id'] },
    ],
  },
  {
    name: 'parents',
    columns: {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true, allowNull: false },
      school_id: { type: DataTypes.STRING(64), allowNull: false },
      father_name: { type: DataTypes.STRING(120), allowNull: true },
      mother_name: { type: DataTypes.STRING(120), allowNull: true },
      phone_no: { type: DataTypes.STRING(20), allowNull: false },
      email: { type: DataTypes.STRING(254), allowNull: true },
      pin_hash: { type: DataTypes.STRING(100), allowNull: true },
      pin_setup_token_hash: { type: DataTypes.STRING(64), allowNull: true },
      pin_setup_expires_at: { type: DataTypes.DATE(3), allowNull: true },
      created_at: { type: DataTypes.DATE(3), allowNull: false },
      updated_at: { type: DataTypes.DATE(3), allowNull: false },
    },
    indexes: [
      { name: 'parents_school_phone_uq', fields: ['school_id','phone_no'], unique: true },
      { name: 'parents_school_pin_setup_uq', fields: ['school_id','pin_setup_token_hash'], unique: true },
      { name: 'parents_phone', fields: ['phone_no'] },
    ],
  },
  {
    name: 'students',
    columns: {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true, allowNull: false },
      school_id: { type: DataTypes.STRING(64), allowNull: false },
      parent_id: { type: DataTypes.INTEGER, allowNull: true },
      student_full_name: { type: DataTypes.STRING(120), allowNull: false },
      gender: { type: DataTypes.STRING(20), allowNull: true },
      grade: { type: DataTypes.STRING(60), allowNull: false },
      date_of_birth: { type: DataTypes.DATEONLY, allowNull: true },
      blood_group: { type: DataTypes.STRING(8), allowNull: true },
      phone_no: { type: DataTypes.STRING(20), allowNull: true },
      roll_no: { type: DataTypes.STRING(32), allowNull: false },
      status: { type: DataTypes.STRING(16), allowNull: false, defaultValue: "registered" },
      created_at: { type: DataTypes.DATE(3), allowNull: false },
      updated_at: { type: DataTypes.DATE(3), allowNull: false },
    },
    indexes: [
      { name: 'students_school_roll_uq', fields: ['school_id','roll_no'], unique: true },
      { name: 'students_school_parent', fields: ['school_id','parent_id'] },
      { name: 'students_school_status', fields: ['school_id','status','id'] },
      { name: 'students_school_grade', fields: ['school_id','grade','status'] },
      { name: 'students_school_name', fields: ['school_id','student_full_name'] },
    ],
  },
  {
    name: 'addresses',
    columns: {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true, allowNull: false },
      school_id: { type: DataTypes.STRING(64), allowNull: false },
      owner_type: { type: DataTypes.STRING(16), allowNull: false },
      owner_id: { type: DataTypes.INTEGER, allowNull: false },
      address_type: { type: DataTypes.STRING(32), allowNull: false, defaultValue: "current" },
      address: { type: DataTypes.STRING(500), allowNull: false },
      city: { type: DataTypes.STRING(120), allowNull: true },
      pincode: { type: DataTypes.INTEGER, allowNull: true },
      created_at: { type: DataTypes.DATE(3), allowNull: false },
      updated_at: { type: DataTypes.DATE(3), allowNull: false },
    },
    indexes: [
      { name: 'addresses_owner', fields: ['school_id','owner_type','owner_id'] },
    ],
  },
  {
    name: 'grades',
    columns: {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true, allowNull: false },
      school_id: { type: DataTypes.STRING(64), allowNull: false },
      name: { type: DataTypes.STRING(60), allowNull: false },
      sort_order: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      class_teacher_id: { type: DataTypes.INTEGER, allowNull: true },
      created_at: { type: DataTypes.DATE(3), allowNull: false },
      updated_at: { type: DataTypes.DATE(3), allowNull: false },
    },
    indexes: [
      { name: 'grades_school_name_uq', fields: ['school_id','name'], unique: true },
    ],
  },
  {
    name: 'admissions',
    columns: {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true, allowNull: false },
      school_id: { type: DataTypes.STRING(64), allowNull: false },
      student_id: { type: DataTypes.INTEGER, allowNull: false },
      parent_id: { type: DataTypes.INTEGER, allowNull: false },
      token_hash: { type: DataTypes.STRING(64), allowNull: false },
      submitted: { type: DataTypes.TEXT, allowNull: false },
      created_at: { type: DataTypes.DATE(3), allowNull: false },
      updated_at: { type: DataTypes.DATE(3), allowNull: false },
    },
    indexes: [
      { name: 'admissions_school_token_uq', fields: ['school_id','token_hash'], unique: true },
      { name: 'admissions_school_student', fields: ['school_id','student_id'] },
    ],
  },
  {
    name: 'sessions',
    columns: {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true, allowNull: false },
      school_id: { type: DataTypes.STRING(64), allowNull: true },
      token_hash: { type: DataTypes.STRING(64), allowNull: false },
      user_type: { type: DataTypes.STRING(10), allowNull: false },
      user_id: { type: DataTypes.INTEGER, allowNull: false },
      fcm_token: { type: DataTypes.STRING(512), allowNull: true },
      device_id: { type: DataTypes.STRING(200), allowNull: true },
      device_name: { type: DataTypes.STRING(200), allowNull: true },
      user_agent: { type: DataTypes.STRING(500), allowNull: true },
      ip: { type: DataTypes.STRING(64), allowNull: true },
      created_at: { type: DataTypes.DATE(3), allowNull: false },
      last_seen_at: { type: DataTypes.DATE(3), allowNull: false },
      expires_at: { type: DataTypes.DATE(3), allowNull: false },
      active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
      revoked_at: { type: DataTypes.DATE(3), allowNull: true },
    },
    indexes: [
      { name: 'sessions_school_token_uq', fields: ['school_id','token_hash'], unique: true },
      { name: 'sessions_user', fields: ['school_id','user_type','user_id','active'] },
      { name: 'sessions_last_seen', fields: ['last_seen_at'] },
      { name: 'sessions_expires', fields: ['expires_at'] },
    ],
  },
  {
    name: 'login_lockouts',
    columns: {
      school_id: { type: DataTypes.STRING(64), primaryKey: true, allowNull: false },
      account_key: { type: DataTypes.STRING(300), primaryKey: true, allowNull: false },
      failures: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      window_started_at: { type: DataTypes.DATE(3), allowNull: false },
      locked_until: { type: DataTypes.DATE(3), allowNull: true },
      updated_at: { type: DataTypes.DATE(3), allowNull: false },
    },
    indexes: [
    ],
  },
  {
    name: 'activities',
    columns: {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true, allowNull: false },
      school_id: { type: DataTypes.STRING(64), allowNull: false },
      title: { type: DataTypes.STRING(200), allowNull: false },
      description: { type: DataTypes.TEXT, allowNull: true },
      activity_type: { type: DataTypes.STRING(20), allowNull: false, defaultValue: "announcement" },
      staff_id: { type: DataTypes.INTEGER, allowNull: false },
      student_id: { type: DataTypes.INTEGER, allowNull: true },
      status: { type: DataTypes.STRING(16), allowNull: false, defaultValue: "draft" },
      deleted_status: { type: DataTypes.SMALLINT, allowNull: false, defaultValue: 0 },
      created_at: { type: DataTypes.DATE(3), allowNull: false },
      updated_at: { type: DataTypes.DATE(3), allowNull: false },
    },
    indexes: [
      { name: 'activities_feed', fields: ['school_id','status','deleted_status','created_at','id'] },
      { name: 'activities_school_created', fields: ['school_id','deleted_status','created_at','id'] },
      { name: 'activities_school_student', fields: ['school_id','student_id'] },
      { name: 'activities_school_staff', fields: ['school_id','staff_id'] },
    ],
  },
  {
    name: 'notices',
    columns: {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true, allowNull: false },
      school_id: { type: DataTypes.STRING(64), allowNull: false },
      notice_title: { type: DataTypes.STRING(200), allowNull: false },
      notice_desc: { type: DataTypes.TEXT, allowNull: true },
      notice_type: { type: DataTypes.STRING(32), allowNull: true },
      is_important: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      created_by_type: { type: DataTypes.STRING(10), allowNull: true },
      created_by_id: { type: DataTypes.INTEGER, allowNull: true },
      notice_deleted: { type: DataTypes.SMALLINT, allowNull: false, defaultValue: 0 },
      created_at: { type: DataTypes.DATE(3), allowNull: false },
      updated_at: { type: DataTypes.DATE(3), allowNull: false },
    },
    indexes: [
      { name: 'notices_board', fields: ['school_id','notice_deleted','is_important','created_at','id'] },
    ],
  },
  {
    name: 'write_to_requests',
    columns: {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true, allowNull: false },
      school_id: { type: DataTypes.STRING(64), allowNull: false },
      parent_id: { type: DataTypes.INTEGER, allowNull: false },
      student_id: { type: DataTypes.INTEGER, allowNull: true },
      type: { type: DataTypes.STRING(16), allowNull: false },
      subject: { type: DataTypes.STRING(200), allowNull: false },
      message: { type: DataTypes.TEXT, allowNull: false },
      status: { type: DataTypes.STRING(16), allowNull: false, defaultValue: "open" },
      assigned_staff_id: { type: DataTypes.INTEGER, allowNull: true },
      leave_from: { type: DataTypes.DATEONLY, allowNull: true },
      leave_to: { type: DataTypes.DATEONLY, allowNull: true },
      resolved_at: { type: DataTypes.DATE(3), allowNull: true },
      replies_count: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      created_at: { type: DataTypes.DATE(3), allowNull: false },
      updated_at: { type: DataTypes.DATE(3), allowNull: false },
    },
    indexes: [
      { name: 'write_to_parent', fields: ['school_id','parent_id','status','created_at'] },
      { name: 'write_to_queue', fields: ['school_id','status','created_at'] },
      { name: 'write_to_assigned', fields: ['school_id','assigned_staff_id'] },
      { name: 'write_to_student', fields: ['school_id','student_id'] },
      { name: 'write_to_resolved', fields: ['status','resolved_at'] },
    ],
  },
  {
    name: 'write_to_replies',
    columns: {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true, allowNull: false },
      school_id: { type: DataTypes.STRING(64), allowNull: false },
      write_to_id: { type: DataTypes.INTEGER, allowNull: false },
      author_type: { type: DataTypes.STRING(10), allowNull: false },
      author_id: { type: DataTypes.INTEGER, allowNull: false },
      author_name: { type: DataTypes.STRING(120), allowNull: true },
      message: { type: DataTypes.TEXT, allowNull: false },
      created_at: { type: DataTypes.DATE(3), allowNull: false },
    },
    indexes: [
      { name: 'write_to_replies_thread', fields: ['school_id','write_to_id','id'] },
    ],
  },
  {
    name: 'comments',
    columns: {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true, allowNull: false },
      school_id: { type: DataTypes.STRING(64), allowNull: false },
      entity_type: { type: DataTypes.STRING(16), allowNull: false },
      entity_id: { type: DataTypes.INTEGER, allowNull: false },
      parent_id: { type: DataTypes.INTEGER, allowNull: false },
      content: { type: DataTypes.TEXT, allowNull: false },
      deleted_status: { type: DataTypes.SMALLINT, allowNull: false, defaultValue: 0 },
      created_at: { type: DataTypes.DATE(3), allowNull: false },
      updated_at: { type: DataTypes.DATE(3), allowNull: false },
    },
    indexes: [
      { name: 'comments_entity', fields: ['school_id','entity_type','entity_id','deleted_status','created_at'] },
    ],
  },
  {
    name: 'reactions',
    columns: {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true, allowNull: false },
      school_id: { type: DataTypes.STRING(64), allowNull: false },
      entity_type: { type: DataTypes.STRING(16), allowNull: false },
      entity_id: { type: DataTypes.INTEGER, allowNull: false },
      parent_id: { type: DataTypes.INTEGER, allowNull: false },
      staff_id: { type: DataTypes.INTEGER, allowNull: true },
      reaction_type: { type: DataTypes.STRING(8), allowNull: false },
      created_at: { type: DataTypes.DATE(3), allowNull: false },
      updated_at: { type: DataTypes.DATE(3), allowNull: false },
    },
    indexes: [
      { name: 'reactions_one_per_user_uq', fields: ['school_id','entity_type','entity_id','parent_id'], unique: true },
      { name: 'reactions_entity_type', fields: ['school_id','entity_type','entity_id','reaction_type'] },
    ],
  },
  {
    name: 'diary_entries',
    columns: {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true, allowNull: false },
      school_id: { type: DataTypes.STRING(64), allowNull: false },
      staff_id: { type: DataTypes.INTEGER, allowNull: false },
      grade: { type: DataTypes.STRING(60), allowNull: true },
      student_id: { type: DataTypes.INTEGER, allowNull: true },
      title: { type: DataTypes.STRING(200), allowNull: false },
      description: { type: DataTypes.TEXT, allowNull: true },
      due_date: { type: DataTypes.DATEONLY, allowNull: true },
      deleted_status: { type: DataTypes.SMALLINT, allowNull: false, defaultValue: 0 },
      created_at: { type: DataTypes.DATE(3), allowNull: false },
      updated_at: { type: DataTypes.DATE(3), allowNull: false },
    },
    indexes: [
      { name: 'diary_grade', fields: ['school_id','grade','deleted_status','created_at'] },
      { name: 'diary_student', fields: ['school_id','student_id','deleted_status','created_at'] },
      { name: 'diary_staff', fields: ['school_id','staff_id'] },
    ],
  },
  {
    name: 'attendance',
    columns: {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true, allowNull: false },
      school_id: { type: DataTypes.STRING(64), allowNull: false },
      student_id: { type: DataTypes.INTEGER, allowNull: false },
      date: { type: DataTypes.DATEONLY, allowNull: false },
      status: { type: DataTypes.STRING(10), allowNull: false },
      marked_by_staff_id: { type: DataTypes.INTEGER, allowNull: true },
      created_at: { type: DataTypes.DATE(3), allowNull: false },
      updated_at: { type: DataTypes.DATE(3), allowNull: false },
    },
    indexes: [
      { name: 'attendance_one_mark_uq', fields: ['school_id','student_id','date'], unique: true },
      { name: 'attendance_school_date', fields: ['school_id','date'] },
    ],
  },
  {
    name: 'notifications',
    columns: {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true, allowNull: false },
      school_id: { type: DataTypes.STRING(64), allowNull: false },
      event: { type: DataTypes.STRING(40), allowNull: false },
      channel: { type: DataTypes.STRING(8), allowNull: false, defaultValue: "push" },
      entity_type: { type: DataTypes.STRING(20), allowNull: true },
      entity_id: { type: DataTypes.INTEGER, allowNull: true },
      target_type: { type: DataTypes.STRING(10), allowNull: false },
      target_id: { type: DataTypes.INTEGER, allowNull: true },
      session_id: { type: DataTypes.INTEGER, allowNull: true },
      address: { type: DataTypes.STRING(512), allowNull: true },
      title: { type: DataTypes.STRING(200), allowNull: false },
      body: { type: DataTypes.STRING(2000), allowNull: false },
      data: { type: DataTypes.TEXT, allowNull: true },
      status: { type: DataTypes.STRING(10), allowNull: false, defaultValue: "pending" },
      attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      last_error: { type: DataTypes.STRING(1000), allowNull: true },
      next_attempt_at: { type: DataTypes.DATE(3), allowNull: true },
      sent_at: { type: DataTypes.DATE(3), allowNull: true },
      created_at: { type: DataTypes.DATE(3), allowNull: false },
      updated_at: { type: DataTypes.DATE(3), allowNull: false },
    },
    indexes: [
      { name: 'notifications_school_created', fields: ['school_id','created_at','id'] },
      { name: 'notifications_due', fields: ['status','next_attempt_at'] },
      { name: 'notifications_school_status', fields: ['school_id','status','created_at'] },
    ],
  },
  {
    name: 'job_runs',
    columns: {
      name: { type: DataTypes.STRING(64), primaryKey: true, allowNull: false },
      last_run_at: { type: DataTypes.DATE(3), allowNull: true },
      last_status: { type: DataTypes.STRING(16), allowNull: true },
      last_error: { type: DataTypes.STRING(1000), allowNull: true },
    },
    indexes: [
    ],
  },
];

export async function up(sequelize: Sequelize): Promise<void> {
  const qi: QueryInterface = sequelize.getQueryInterface();
  for (const table of tables) {
    await qi.createTable(table.name, table.columns);
    for (const index of table.indexes) await qi.addIndex(table.name, index.fields, { name: index.name, unique: index.unique ?? false });
  }
}

export async function down(sequelize: Sequelize): Promise<void> {
  const qi = sequelize.getQueryInterface();
  for (const table of [...tables].reverse()) await qi.dropTable(table.name);
}

