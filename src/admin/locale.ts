import type { LocaleTranslations } from 'adminjs';

/** The words a school office uses, rather than table and column names. */
const properties: Record<string, string> = {
  id: 'ID',
  school_id: 'School',
  created_at: 'Created',
  updated_at: 'Last changed',
  name: 'Name',
  email: 'Email',
  phone_no: 'Phone',
  status: 'Status',
  rbac: 'Permissions',
  'rbac.activities': 'Activities',
  'rbac.noticeboard': 'Noticeboard',
  'rbac.students': 'Students',
  'rbac.write_to': 'Write-to requests',
  'rbac.attendance': 'Attendance',
  'rbac.diary': 'Diary',
  student_id: 'Student',
  parent_id: 'Parent',
  staff_id: 'Staff member',
  deleted_status: 'Deleted',
  entity_type: 'On',
  entity_id: 'Item ID',
};

const resources: LocaleTranslations['resources'] = {
  students: {
    properties: {
      student_full_name: 'Full name', roll_no: 'Roll number', grade: 'Grade', gender: 'Gender', date_of_birth: 'Date of birth',
      blood_group: 'Blood group', phone_no: "Guardian's phone",
    },
    actions: { import: 'Import', archive: 'Archive', restore: 'Restore', resetParentPin: 'Reset parent PIN' },
  },
  parents: {
    properties: { father_name: "Father's name", mother_name: "Mother's name", pin_setup_expires_at: 'PIN set-up link expires' },
    actions: { testPush: 'Send test push' },
  },
  staff: { properties: { designation: 'Designation' }, actions: { import: 'Import', archive: 'Archive', restore: 'Restore', resetPin: 'Reset PIN', testPush: 'Send test push' } },
  designations: {},
  notices: {
    properties: { notice_title: 'Title', notice_type: 'Type', is_important: 'Important', notice_desc: 'Text', created_by_type: 'Posted by', created_by_id: 'Posted by (ID)', notice_deleted: 'Deleted' },
    actions: { reach: 'Reach', remind: 'Remind unread' },
  },
  activities: { properties: { title: 'Title', activity_type: 'Type', description: 'Description', staff_id: 'Author' }, actions: { reach: 'Reach', remind: 'Remind unread' } },
  write_to_requests: {
    properties: {
      subject: 'Subject', type: 'Kind', message: 'Message', assigned_staff_id: 'Assigned to', leave_from: 'Leave from', leave_to: 'Leave to',
      replies_count: 'Replies', resolved_at: 'Resolved',
    },
    actions: { resolve: 'Resolve', replies: 'Replies' },
  },
  write_to_replies: { properties: { write_to_id: 'Request', author_type: 'From', author_id: 'Author ID', author_name: 'Author', message: 'Message', created_at: 'Sent' } },
  comments: { properties: { content: 'Comment' } },
  reactions: { properties: { reaction_type: 'Reaction' } },
  diary_entries: { properties: { title: 'Title', grade: 'Grade', due_date: 'Due', description: 'Details', staff_id: 'Teacher' } },
  attendance: { properties: { date: 'Date', marked_by_staff_id: 'Marked by' } },
  grades: { properties: { name: 'Grade', class_teacher_id: 'Class teacher', sort_order: 'Order' } },
  admin_users: { properties: { role: 'Role', password: 'Password' } },
  schools: {
    properties: { id: 'School ID', school_code: 'School ID', admin_name: "First admin's name", admin_email: "First admin's email", admin_password: "First admin's password" },
    actions: { suspend: 'Suspend', resume: 'Resume' },
  },
  student_groups: { properties: { name: 'Group', description: 'Description', deleted_key: 'Deleted' } },
  group_members: { properties: { group_id: 'Group', student_id: 'Student' } },
  school_settings: { properties: { id: 'School ID', name: 'Name', timezone: 'Time zone', status: 'Status' } },
  sessions: {
    properties: {
      user_type: 'Account type', user_id: 'Account ID', device_id: 'Device ID', device_name: 'Device', user_agent: 'Browser / app', ip: 'IP address',
      last_seen_at: 'Last seen', expires_at: 'Expires', active: 'Active', revoked_at: 'Ended', created_at: 'Signed in',
    },
    actions: { revoke: 'End session', testPush: 'Send test push' },
  },
  notifications: {
    properties: {
      event: 'Event', channel: 'Channel', target_type: 'Recipient type', target_id: 'Recipient ID', title: 'Title', body: 'Message', attempts: 'Attempts',
      last_error: 'Last error', deliver_after: 'Held until (quiet hours)', next_attempt_at: 'Next attempt', sent_at: 'Sent',
    },
  },
};

export const consoleLocale = {
  language: 'en',
  availableLanguages: ['en'],
  translations: {
    en: {
      labels: {
        students: 'Students', parents: 'Parents', staff: 'Staff', designations: 'Designations', notices: 'Notices', activities: 'Activities',
        write_to_requests: 'Write-to requests', write_to_replies: 'Write-to replies', comments: 'Comments', reactions: 'Reactions',
        diary_entries: 'Diary entries', attendance: 'Attendance', grades: 'Grades', admin_users: 'Admin users', schools: 'Schools', school_settings: 'School settings', student_groups: 'Groups', group_members: 'Group members',
        sessions: 'Sessions (signed-in devices)', notifications: 'Notifications', navigation: 'Menu', dashboard: 'Overview',
      },
      properties,
      resources,
      components: { Login: { welcomeHeader: 'School platform', welcomeMessage: 'Sign in with your admin email and password.' } },
    },
  },
};
