/**
 * The words a school office reads for the codes the database stores: statuses, kinds, roles, what a
 * record is about. The API and the stored values keep the codes; only the console shows these.
 */

export const studentStatusLabels: Record<string, string> = { registered: 'Registered', active: 'Active', inactive: 'Inactive', archived: 'Archived' };

export const staffStatusLabels: Record<string, string> = { 1: 'Active', 0: 'Archived' };

export const adminRoleLabels: Record<string, string> = { admin: 'Admin', super_admin: 'Super admin', it_contact: 'IT contact', platform_admin: 'Platform operator' };

/** Who wrote a reply or owns a session. */
export const accountTypeLabels: Record<string, string> = { parent: 'Parent', staff: 'Staff member', admin: 'Admin user', token: 'A device' };

export const actorTypeLabels: Record<string, string> = { parent: 'Parent', staff: 'Staff member', admin: 'Admin user', operator: 'Platform operator', system: 'The system' };

export const doorLabels: Record<string, string> = { api: 'An app', console: 'This console', cli: 'The command line', job: 'A scheduled job' };

/** What a record is about (audit events, comments, reactions, notifications). */
export const entityTypeLabels: Record<string, string> = {
  school: 'School', admin_user: 'Admin user', designation: 'Designation', grade: 'Grade', group: 'Group', staff: 'Staff member', student: 'Student',
  parent: 'Parent', admission: 'Admission', activity: 'Activity', noticeboard: 'Notice', form: 'Form', form_response: 'Form response', write_to: 'Write-to request',
  comment: 'Comment', reaction: 'Reaction', diary: 'Diary entry', attendance: 'Attendance', session: 'Session', notification: 'Notification',
  preference: 'Notification preferences', webhook: 'Webhook', import: 'Import', attachment: 'Attachment',
};

export const notificationEventLabels: Record<string, string> = {
  activity_published: 'Activity published', notice_published: 'Notice published', reminder: 'Reminder', write_to_leave: 'Leave request',
  write_to_reply: 'Reply to a request', admission_pin_setup: 'PIN set-up link', email_verification: 'E-mail address confirmation',
  test_push: 'Test push', test_message: 'Test message',
};

export const notificationStatusLabels: Record<string, string> = { pending: 'Pending', sent: 'Sent', failed: 'Failed', skipped: 'Skipped' };

export const channelLabels: Record<string, string> = { push: 'Push', sms: 'SMS', email: 'E-mail' };

export const writeToTypeLabels: Record<string, string> = { leave: 'Leave', complaint: 'Complaint', query: 'Question', feedback: 'Feedback', other: 'Other' };

export const writeToStatusLabels: Record<string, string> = { open: 'Open', in_progress: 'In progress', resolved: 'Resolved', archived: 'Archived' };

export const activityTypeLabels: Record<string, string> = { event: 'Event', announcement: 'Announcement' };

export const activityStatusLabels: Record<string, string> = { draft: 'Draft', scheduled: 'Scheduled', published: 'Published', cancelled: 'Cancelled' };

export const noticeTypeLabels: Record<string, string> = { holiday: 'Holiday', event: 'Event', meeting: 'Meeting', exam: 'Exam', fee: 'Fees', general: 'General' };

export const attendanceStatusLabels: Record<string, string> = { present: 'Present', absent: 'Absent', late: 'Late', excused: 'Excused' };

export const reactionTypeLabels: Record<string, string> = { like: 'Like', love: 'Love' };

export const schoolStatusLabels: Record<string, string> = { active: 'Active', suspended: 'Suspended' };

export const webhookEventLabels: Record<string, string> = {
  '*': 'Every event', 'activity.published': 'Activity published', 'notice.published': 'Notice published', 'write_to.created': 'Write-to request sent',
  'write_to.resolved': 'Write-to request resolved', 'admission.submitted': 'Admission form submitted', 'student.archived': 'Student archived',
  'staff.archived': 'Staff member archived', 'form.response_submitted': 'Form response submitted',
};

export const webhookDeliveryStatusLabels: Record<string, string> = { pending: 'Pending', delivered: 'Delivered', failed: 'Failed' };

export const permissionLevelLabels: Record<string, string> = { none: 'None', view: 'View', create: 'Create', manage: 'Manage' };

export const featureLabels: Record<string, string> = {
  activities: 'Activities', noticeboard: 'Noticeboard', students: 'Students', write_to: 'Write-to requests', attendance: 'Attendance', diary: 'Diary',
};

export const yesNo: Record<string, string> = { 0: 'No', 1: 'Yes' };
