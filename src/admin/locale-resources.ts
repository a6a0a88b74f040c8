/**
 * Each resource's name in the menu, one of its records as a sentence names it (the titles of its New,
 * Edit and Details pages, its notices), its fields' labels where they differ from the common ones,
 * and its actions' names.
 */
interface ResourceWords {
  label: string;
  one: string;
  properties?: Record<string, string>;
  actions?: Record<string, string>;
}

export const resourceLabels: Record<string, ResourceWords> = {
  students: {
    label: 'Students', one: 'Student',
    properties: {
      student_full_name: 'Full name', roll_no: 'Roll number', gender: 'Gender', date_of_birth: 'Date of birth', blood_group: 'Blood group', phone_no: "Guardian's phone",
      father_name: "Father's name", mother_name: "Mother's name", email: "Guardian's e-mail", address: 'Address', city: 'City', pincode: 'PIN code', parent_id: 'Parent',
    },
    actions: { new: 'Add a student', import: 'Import', archive: 'Archive', restore: 'Restore', resetParentPin: 'Reset parent PIN', exportData: 'Export data', erase: 'Erase' },
  },
  parents: {
    label: 'Parents', one: 'Parent',
    properties: {
      father_name: "Father's name", mother_name: "Mother's name", pin_setup_expires_at: 'PIN set-up link expires', email_verified: 'E-mail verified', children: 'Children', has_pin: 'Has set a PIN',
    },
    actions: { testPush: 'Send test push', resetPin: 'Reset PIN' },
  },
  student_groups: { label: 'Groups', one: 'Group', properties: { name: 'Group', description: 'Description', deleted_key: 'Deleted', members: 'Members' }, actions: { addMembers: 'Add members' } },
  group_members: { label: 'Group members', one: 'Group member', properties: { group_id: 'Group', student_id: 'Student' } },
  staff: {
    label: 'Staff', one: 'Staff member',
    properties: { designation: 'Designation', permissions: 'What they may do', rbac: 'Own permissions' },
    actions: { import: 'Import', archive: 'Archive', restore: 'Restore', resetPin: 'Reset PIN', testPush: 'Send test push' },
  },
  designations: { label: 'Designations', one: 'Designation', properties: { name: 'Designation', rbac: 'Permissions' } },
  notices: {
    label: 'Notices', one: 'Notice',
    properties: {
      notice_title: 'Title', notice_type: 'Kind', is_important: 'Important', notice_desc: 'Text', posted_by: 'Posted by', created_by_type: 'Posted by (kind)',
      created_by_id: 'Posted by (ID)', notice_deleted: 'Deleted', form: 'Form (JSON)', form_summary: 'Form',
    },
    actions: { reach: 'Reach', remind: 'Remind unread', forms: 'Forms' },
  },
  activities: {
    label: 'Activities', one: 'Activity',
    properties: {
      activity_type: 'Kind', staff_id: 'Author', student_id: 'For student', starts_at: 'Starts', ends_at: 'Ends', all_day: 'All day', location: 'Place',
      form: 'Form (JSON)', form_summary: 'Form',
    },
    actions: { reach: 'Reach', remind: 'Remind unread', forms: 'Forms' },
  },
  form_responses: {
    label: 'Form responses', one: 'Form response',
    properties: {
      item: 'On', form_id: 'Form ID', student_id: 'Student', parent_id: 'Parent', answers_shown: 'Answers', signature: 'Signature', signed_at: 'Signed',
      ip: 'IP address', user_agent: 'Browser or app', submitted_at: 'Submitted', updated_at: 'Last changed',
    },
  },
  write_to_requests: {
    label: 'Write-to requests', one: 'Write-to request',
    properties: {
      subject: 'Subject', type: 'Kind', assigned_staff_id: 'Assigned to', leave_from: 'Leave from', leave_to: 'Leave to', replies_count: 'Replies', resolved_at: 'Resolved',
      thread: 'Conversation',
    },
    actions: { resolve: 'Resolve', reply: 'Reply', assign: 'Assign' },
  },
  write_to_replies: {
    label: 'Write-to replies', one: 'Reply',
    properties: { write_to_id: 'Request', author: 'From', author_type: 'From (kind)', author_id: 'Author ID', author_name: 'Author', created_at: 'Sent' },
  },
  comments: { label: 'Comments', one: 'Comment', properties: { content: 'Comment', entity_type: 'On a' } },
  reactions: { label: 'Reactions', one: 'Reaction', properties: { reaction_type: 'Reaction', entity_type: 'On a' } },
  diary_entries: { label: 'Diary entries', one: 'Diary entry', properties: { due_date: 'Due', description: 'Details', staff_id: 'Teacher' } },
  attendance: { label: 'Attendance', one: 'Attendance mark', properties: { date: 'Date', marked_by_staff_id: 'Marked by' } },
  grades: { label: 'Grades', one: 'Grade', properties: { name: 'Grade', class_teacher_id: 'Class teacher', sort_order: 'Order' } },
  admin_users: { label: 'Admin users', one: 'Admin user', properties: { role: 'Role', password: 'Password' } },
  school_settings: {
    label: 'School settings', one: 'School settings',
    properties: {
      id: 'School ID', name: 'Name', timezone: 'Time zone', status: 'Status', storage_limit_mb: 'Storage limit (MiB)', storage_used_mb: 'Storage used (MiB)',
      country: 'Country (phone numbers)', sms_monthly_limit: 'SMS a month', sms_used_this_month: 'SMS used this month',
    },
    // The school's one record is its settings: "School settings details" would say it twice.
    actions: { show: 'School settings' },
  },
  schools: {
    label: 'Schools', one: 'School',
    properties: { id: 'School ID', school_code: 'School ID', admin_name: "First admin's name", admin_email: "First admin's e-mail", admin_password: "First admin's password" },
    actions: { suspend: 'Suspend', resume: 'Resume' },
  },
  sessions: {
    label: 'Sessions (signed-in devices)', one: 'Session',
    properties: {
      account: 'Account', user_type: 'Account type', user_id: 'Account ID', device_id: 'Device ID', device_name: 'Device', user_agent: 'Browser or app', ip: 'IP address',
      last_seen_at: 'Last seen', expires_at: 'Expires', active: 'Active', revoked_at: 'Ended', created_at: 'Signed in',
    },
    actions: { revoke: 'End session', testPush: 'Send test push' },
  },
  notifications: {
    label: 'Notifications', one: 'Notification',
    properties: {
      event: 'What', channel: 'Channel', recipient: 'Recipient', target_type: 'Recipient type', target_id: 'Recipient ID', body: 'Message', attempts: 'Attempts',
      last_error: 'Last error', deliver_after: 'Held until (quiet hours)', next_attempt_at: 'Next attempt', sent_at: 'Sent', delivered_at: 'Delivered',
    },
  },
  audit_events: {
    label: 'Audit log', one: 'Audit event',
    properties: {
      at: 'When', actor: 'Who', actor_type: 'Who (kind)', actor_id: 'Who (ID)', actor_name: 'Who (name)', door: 'Through', action: 'What happened',
      change_rows: 'Changes', ip: 'IP address', request_id: 'Request ID',
    },
  },
  webhooks: {
    label: 'Webhooks', one: 'Webhook',
    properties: { url: 'Address (URL)', events: 'Events', active: 'On', disabled_reason: 'Switched off because', failing_since: 'Failing since', deleted_status: 'Deleted' },
    actions: { deliveries: 'Deliveries' },
  },
  webhook_deliveries: {
    label: 'Webhook deliveries', one: 'Webhook delivery',
    properties: {
      webhook_id: 'Webhook', event_id: 'Event ID', event: 'Event', attempts: 'Attempts', response_status: 'Answer (HTTP status)', last_error: 'Last error',
      next_attempt_at: 'Next attempt', payload: 'What was sent', delivered_at: 'Delivered',
    },
  },
};
