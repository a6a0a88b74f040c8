import type { Model, ModelStatic, Sequelize } from 'sequelize';
import { Activity } from './activity.js';
import { Address } from './address.js';
import { AdminUser, type AdminRole } from './admin-user.js';
import { Admission } from './admission.js';
import { Attachment } from './attachment.js';
import { Attendance } from './attendance.js';
import { AuditEvent } from './audit-event.js';
import { AudienceTarget, Read } from './audience.js';
import { CalendarFeed } from './calendar-feed.js';
import { Comment } from './comment.js';
import { ConsoleSession } from './console-session.js';
import { DiaryEntry } from './diary-entry.js';
import { Form, FormResponse } from './form.js';
import { Designation } from './designation.js';
import { Grade } from './grade.js';
import { Group, GroupMember } from './group.js';
import { JobRun } from './job-run.js';
import { LinkToken } from './link-token.js';
import { LoginLockout } from './login-lockout.js';
import { Notice } from './notice.js';
import { Notification } from './notification.js';
import { NotificationPreference } from './notification-preference.js';
import { Parent } from './parent.js';
import { Reaction } from './reaction.js';
import { School } from './school.js';
import { Session } from './session.js';
import { Staff } from './staff.js';
import { StaffStudent } from './staff-student.js';
import { Student } from './student.js';
import { Webhook, WebhookDelivery } from './webhook.js';
import { WriteToReply } from './write-to-reply.js';
import { WriteToRequest } from './write-to-request.js';

export type { AdminRole };
export {
  Activity, Address, AdminUser, Admission, Attachment, Attendance, AudienceTarget, AuditEvent, CalendarFeed, Comment, ConsoleSession, DiaryEntry, Designation, Form, FormResponse, Grade, Group, GroupMember, JobRun, LinkToken, LoginLockout, Notice,
  Notification, NotificationPreference, Parent, Reaction, Read, School, Session, Staff, StaffStudent, Student, Webhook, WebhookDelivery, WriteToReply, WriteToRequest,
};

export const allModels = [
  School, AdminUser, Designation, Staff, StaffStudent, Parent, Student, Address, Grade, Group, GroupMember, Admission, Session, LoginLockout,
  Activity, Notice, AudienceTarget, Read, WriteToRequest, WriteToReply, Comment, Reaction, DiaryEntry, Attendance, Notification, NotificationPreference, JobRun,
  ConsoleSession, AuditEvent, Webhook, WebhookDelivery, Form, FormResponse, CalendarFeed, Attachment, LinkToken,
];

/**
 * Binds every model to the instance and declares the associations in one place. The associations
 * carry no database constraints (`constraints: false`): the schema is sharded by school_id, and
 * soft deletes keep rows that a cascade would remove.
 */
export function initModels(sequelize: Sequelize): void {
  for (const model of allModels) model.initModel(sequelize);
  const c = { constraints: false } as const;

  School.hasMany(AdminUser, { foreignKey: 'school_id', ...c });
  AdminUser.belongsTo(School, { foreignKey: 'school_id', ...c });
  for (const m of [Designation, Staff, Parent, Student, Grade, Activity, Notice, WriteToRequest, DiaryEntry] as ModelStatic<Model>[]) {
    m.belongsTo(School, { foreignKey: 'school_id', ...c });
  }

  Staff.belongsToMany(Student, { through: StaffStudent, foreignKey: 'staff_id', otherKey: 'student_id', as: 'students', ...c });
  Student.belongsToMany(Staff, { through: StaffStudent, foreignKey: 'student_id', otherKey: 'staff_id', as: 'teachers', ...c });
  StaffStudent.belongsTo(Staff, { foreignKey: 'staff_id', ...c });
  StaffStudent.belongsTo(Student, { foreignKey: 'student_id', ...c });

  Parent.hasMany(Student, { foreignKey: 'parent_id', as: 'children', ...c });
  Student.belongsTo(Parent, { foreignKey: 'parent_id', as: 'parent', ...c });
  Admission.belongsTo(Student, { foreignKey: 'student_id', ...c });
  Admission.belongsTo(Parent, { foreignKey: 'parent_id', ...c });

  Grade.belongsTo(Staff, { foreignKey: 'class_teacher_id', as: 'classTeacher', ...c });
  Activity.belongsTo(Staff, { foreignKey: 'staff_id', as: 'author', ...c });
  Activity.belongsTo(Student, { foreignKey: 'student_id', ...c });

  WriteToRequest.belongsTo(Parent, { foreignKey: 'parent_id', ...c });
  WriteToRequest.belongsTo(Student, { foreignKey: 'student_id', ...c });
  WriteToRequest.belongsTo(Staff, { foreignKey: 'assigned_staff_id', as: 'assignedStaff', ...c });
  WriteToRequest.hasMany(WriteToReply, { foreignKey: 'write_to_id', as: 'replies', ...c });
  WriteToReply.belongsTo(WriteToRequest, { foreignKey: 'write_to_id', ...c });

  Comment.belongsTo(Parent, { foreignKey: 'parent_id', ...c });
  Reaction.belongsTo(Parent, { foreignKey: 'parent_id', ...c });
  NotificationPreference.belongsTo(Parent, { foreignKey: 'parent_id', ...c });
  DiaryEntry.belongsTo(Staff, { foreignKey: 'staff_id', as: 'author', ...c });
  DiaryEntry.belongsTo(Student, { foreignKey: 'student_id', ...c });
  Attendance.belongsTo(Student, { foreignKey: 'student_id', ...c });
  GroupMember.belongsTo(Group, { foreignKey: 'group_id', ...c });
  GroupMember.belongsTo(Student, { foreignKey: 'student_id', ...c });
  WebhookDelivery.belongsTo(Webhook, { foreignKey: 'webhook_id', ...c });
  FormResponse.belongsTo(Form, { foreignKey: 'form_id', ...c });
  FormResponse.belongsTo(Parent, { foreignKey: 'parent_id', ...c });
  FormResponse.belongsTo(Student, { foreignKey: 'student_id', ...c });
}
