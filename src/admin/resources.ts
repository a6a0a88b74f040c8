import { randomInt } from 'node:crypto';
import type { BaseRecord, PropertyOptions, ResourceOptions, ResourceWithOptions } from 'adminjs';
import type { Model, ModelStatic } from 'sequelize';
import { z } from 'zod';
import { email, id, name, password } from '../services/schemas.js';
import type { AppContext, Principal } from '../context.js';
import { badRequest } from '../errors.js';
import {
  Activity, AdminUser, Attendance, AuditEvent, Comment, Designation, DiaryEntry, Grade, Group, GroupMember, Notice, Notification, Parent, Reaction, School, Session,
  Staff, Student, Webhook, WebhookDelivery, WriteToReply, WriteToRequest,
} from '../models/index.js';
import { activityStatuses, activityTypes } from '../models/activity.js';
import { actorTypes, auditEntityTypes, doors } from '../models/audit-event.js';
import { adminRoles } from '../models/admin-user.js';
import { attendanceStatuses } from '../models/attendance.js';
import { entityTypes } from '../models/comment.js';
import { noticeTypes } from '../models/notice.js';
import { notificationStatuses } from '../models/notification.js';
import { reactionTypes } from '../models/reaction.js';
import { studentStatuses } from '../models/student.js';
import { webhookDeliveryStatuses } from '../models/webhook.js';
import { writeToStatuses, writeToTypes } from '../models/write-to-request.js';
import { features, levels } from '../services/access/rbac.js';
import { createAdmin, deleteAdmin, schoolAdminRoles, updateAdmin } from '../services/admins/admin-users.js';
import { revokeSessionById } from '../services/auth/sessions.js';
import { sendTestPush, type TestPushInput } from '../services/diagnostics/diagnostics.js';
import { concealedMessage } from '../services/notifications/notifications.js';
import { resolveWriteTo } from '../services/write-to/write-to.js';
import { deleteDiaryEntry, updateDiaryEntry } from '../services/diary/diary.js';
import { deleteComment } from '../services/engagement/comments.js';
import { createActivity, deleteActivity, updateActivity } from '../services/activities/activities.js';
import { createNotice, deleteNotice, updateNotice } from '../services/notices/notices.js';
import { createSchool, SCHOOL_ID_PATTERN, setSchoolStatus } from '../services/schools/schools.js';
import { schoolChangesInput, updateSchoolSettings } from '../services/schools/settings.js';
import { createDesignation, deleteDesignation, updateDesignation } from '../services/staff/designations.js';
import { createStaff, resetStaffPin, updateStaff } from '../services/staff/staff.js';
import { createGrade, deleteGrade, updateGrade } from '../services/students/grades.js';
import { addGroupMembers, createGroup, deleteGroup, removeMember, updateGroup } from '../services/groups/groups.js';
import { archiveStudent, resetParentPin, restoreStudent, studentChangesInput, updateStudent } from '../services/students/students.js';
import { parseInput } from '../services/validation.js';
import { createWebhook, deleteWebhook, updateWebhook, webhookEventChoices } from '../services/webhooks/webhooks.js';
import { allows, diagnosticsRoles, roleAccess, type RoleAccess } from './access.js';
import { recordAction, serviceActions, type RecordActionSpec, type ServiceActions } from './actions.js';
import { importAction } from './import-action.js';
import { reachActions } from './reach-actions.js';
import { privacyActions } from './privacy-actions.js';
import { audienceEnricher, audienceFormFields, audienceProperties, audiencePropertyNames, withAudience } from './audience-fields.js';
import { isPlatformAdmin, type ConsoleAdmin } from './auth.js';
import { ScopedResource, type ScopeSpec } from './scoped-resource.js';

const nav = {
  people: { name: 'Families', icon: 'Users' },
  staff: { name: 'Staff', icon: 'Briefcase' },
  communication: { name: 'Communication', icon: 'MessageSquare' },
  classroom: { name: 'Classroom', icon: 'BookOpen' },
  setup: { name: 'School set-up', icon: 'Settings' },
  access: { name: 'Access', icon: 'Smartphone' },
};

const choices = (values: readonly (string | number)[], labels: Record<string, string> = {}) =>
  values.map((v) => ({ value: String(v), label: labels[String(v)] ?? String(v).replace(/_/g, ' ') }));

/** Shown to the operator only (the PlatformOnly component); a school admin's records are all of its school. */
const schoolColumn: PropertyOptions = {
  isVisible: { list: false, filter: true, show: true, edit: true },
  components: { show: 'PlatformOnly', filter: 'PlatformOnly', edit: 'PlatformOnly' },
  position: 0,
};
const readOnly: PropertyOptions = { isVisible: { list: true, filter: true, show: true, edit: false } };
const textarea: PropertyOptions = { type: 'textarea', isVisible: { list: false, filter: false, show: true, edit: true } };
const deletedFlag: PropertyOptions = {
  availableValues: choices([0, 1], { 0: 'No', 1: 'Yes (deleted)' }),
  isVisible: { list: false, filter: true, show: true, edit: false },
};
const ref = (resource: string, extra: PropertyOptions = {}): PropertyOptions => ({ reference: resource, ...extra });
const newPin = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

interface Spec {
  model: ModelStatic<Model>;
  scope: ScopeSpec;
  access: RoleAccess;
  options: ResourceOptions;
  services: ServiceActions;
  extraActions?: ResourceOptions['actions'];
}

function build(ctx: AppContext, spec: Spec): ResourceWithOptions {
  const properties: ResourceOptions['properties'] = { ...spec.options.properties };
  if (spec.scope.schoolColumn === 'school_id') properties.school_id = { ...schoolColumn, ...properties.school_id };
  for (const key of ['created_at', 'updated_at']) properties[key] = { isVisible: { list: false, filter: true, show: true, edit: false }, ...properties[key] };
  return {
    resource: new ScopedResource(spec.model, spec.scope),
    options: {
      ...spec.options,
      properties,
      actions: { ...serviceActions(ctx, spec.access, { schoolColumn: spec.scope.schoolColumn, ...spec.services }), ...spec.extraActions },
    },
  };
}

const withSchool = (list: string[] | undefined) => (list ? ['school_id', ...list] : undefined);

/** Every resource of CONTRACT.md section 16, in the order of the navigation. */
export function consoleResources(ctx: AppContext): ResourceWithOptions[] {
  const staffAccess = roleAccess.school;
  const specs: Spec[] = [
    {
      model: Student, scope: { schoolColumn: 'school_id' }, access: roleAccess.school,
      options: {
        navigation: nav.people,
        sort: { sortBy: 'student_full_name', direction: 'asc' },
        listProperties: ['id', 'student_full_name', 'roll_no', 'grade', 'status', 'phone_no'],
        filterProperties: ['student_full_name', 'roll_no', 'grade', 'status', 'parent_id', 'phone_no', 'created_at'],
        showProperties: ['school_id', 'id', 'student_full_name', 'roll_no', 'grade', 'status', 'gender', 'date_of_birth', 'blood_group', 'phone_no', 'parent_id', 'created_at', 'updated_at'],
        editProperties: ['student_full_name', 'roll_no', 'grade', 'status', 'gender', 'date_of_birth', 'blood_group', 'phone_no'],
        properties: {
          student_full_name: { isTitle: true },
          status: { availableValues: choices(studentStatuses) },
          parent_id: ref('parents', readOnly),
        },
      },
      services: {
        noun: 'Student',
        fields: { student_full_name: 'text', roll_no: 'text', grade: 'text', status: 'text', gender: 'nullableText', date_of_birth: 'date', blood_group: 'nullableText', phone_no: 'text' },
        update: (c, p, i, changes) => updateStudent(c, p, i, parseInput(studentChangesInput, changes)),
      },
      extraActions: {
        ...privacyActions(ctx),
        import: importAction(ctx, ['students', 'oneroster']),
        archive: recordAction(roleAccess.school, {
          icon: 'Archive', variant: 'danger', allowed: () => true, appliesTo: (r) => r.params.status !== 'archived',
          guard: 'Archive this student? They leave every list and their parents no longer see them.',
          perform: async (p, r) => {
            await archiveStudent(ctx, p, Number(r.id()));
            return { message: `${r.params.student_full_name} archived` };
          },
        }),
        restore: recordAction(roleAccess.school, {
          icon: 'RotateCcw', allowed: () => true, appliesTo: (r) => r.params.status === 'archived',
          perform: async (p, r) => {
            await restoreStudent(ctx, p, Number(r.id()));
            return { message: `${r.params.student_full_name} restored (now inactive)` };
          },
        }),
        resetParentPin: recordAction(roleAccess.school, {
          icon: 'Key', variant: 'danger', allowed: () => true, appliesTo: (r) => r.params.parent_id != null,
          guard: "Set a new PIN for this student's parent? Every device the parent is signed in on is signed out.",
          perform: async (p, r) => {
            const pin = newPin();
            await resetParentPin(ctx, p, Number(r.id()), pin);
            return { message: `New parent PIN for ${r.params.student_full_name}: ${pin}. Give it to the parent now; it is not shown again.`, type: 'info' };
          },
        }),
      },
    },
    {
      model: Parent, scope: { schoolColumn: 'school_id', secret: ['pin_hash', 'pin_setup_token_hash'] }, access: roleAccess.school,
      options: {
        navigation: nav.people,
        sort: { sortBy: 'father_name', direction: 'asc' },
        listProperties: ['id', 'father_name', 'mother_name', 'phone_no', 'email'],
        filterProperties: ['father_name', 'mother_name', 'phone_no', 'email', 'created_at'],
        showProperties: ['school_id', 'id', 'father_name', 'mother_name', 'phone_no', 'email', 'pin_setup_expires_at', 'created_at', 'updated_at'],
        properties: { father_name: { isTitle: true } },
      },
      services: { noun: 'Parent' },
      extraActions: { testPush: testPushAction(ctx, roleAccess.school, (r) => ({ parent_id: Number(r.id()) })) },
    },
    {
      model: Group, scope: { schoolColumn: 'school_id', softDelete: 'deleted_key' }, access: roleAccess.school,
      options: {
        navigation: nav.people,
        sort: { sortBy: 'name', direction: 'asc' },
        listProperties: ['id', 'name', 'description', 'created_at'],
        filterProperties: ['name', 'deleted_key', 'created_at'],
        showProperties: ['school_id', 'id', 'name', 'description', 'created_at', 'updated_at'],
        editProperties: ['name', 'description'],
        properties: { name: { isTitle: true }, description: textarea, deleted_key: deletedFlag },
      },
      services: {
        noun: 'Group',
        fields: { name: 'text', description: 'nullableText' },
        create: (c, p, input) => createGroup(c, p, input as never),
        update: (c, p, i, changes) => updateGroup(c, p, i, changes as never),
        remove: (c, p, i) => deleteGroup(c, p, i),
      },
    },
    {
      model: GroupMember, scope: { schoolColumn: 'school_id' }, access: roleAccess.school,
      options: {
        navigation: nav.people,
        sort: { sortBy: 'id', direction: 'desc' },
        listProperties: ['id', 'group_id', 'student_id', 'created_at'],
        filterProperties: ['group_id', 'student_id', 'created_at'],
        showProperties: ['school_id', 'id', 'group_id', 'student_id', 'created_at'],
        editProperties: ['group_id', 'student_id'],
        properties: { group_id: ref('student_groups', { isRequired: true }), student_id: ref('students', { isRequired: true }) },
      },
      services: {
        noun: 'Group member',
        fields: { group_id: 'reference', student_id: 'reference' },
        create: async (c, p, input) => {
          const { group_id: groupId, student_id: studentId } = parseInput(z.object({ group_id: id(), student_id: id() }), input);
          await addGroupMembers(c, p, groupId, { student_ids: [studentId] });
          return { id: (await GroupMember.findOne({ where: { school_id: p.schoolId, group_id: groupId, student_id: studentId }, attributes: ['id'], raw: true }))!.id };
        },
        remove: (c, p, i) => removeMember(c, p, i),
      },
    },
    {
      model: Staff, scope: { schoolColumn: 'school_id', secret: ['pin_hash'] }, access: staffAccess,
      options: {
        navigation: nav.staff,
        sort: { sortBy: 'name', direction: 'asc' },
        listProperties: ['id', 'name', 'designation', 'phone_no', 'email', 'status'],
        filterProperties: ['name', 'designation', 'phone_no', 'email', 'status'],
        showProperties: ['school_id', 'id', 'name', 'designation', 'phone_no', 'email', 'status', 'rbac', 'created_at', 'updated_at'],
        editProperties: ['school_id', 'name', 'designation', 'phone_no', 'email', 'rbac'],
        properties: {
          name: { isTitle: true },
          status: { type: 'number', availableValues: choices([1, 0], { 1: 'active', 0: 'archived' }), isVisible: { list: true, filter: true, show: true, edit: false } },
          ...rbacProperties('Own permissions (over the designation)'),
        },
      },
      services: {
        noun: 'Staff member',
        fields: { name: 'text', designation: 'nullableText', phone_no: 'text', email: 'nullableText', rbac: 'object' },
        create: (c, p, input) => createStaff(c, p, input as never),
        update: (c, p, i, changes) => updateStaff(c, p, i, changes as never),
      },
      extraActions: {
        import: importAction(ctx, ['staff']),
        archive: recordAction(staffAccess, {
          icon: 'Archive', variant: 'danger', allowed: () => true, appliesTo: (r) => Number(r.params.status) === 1,
          guard: 'Archive this staff member? They are signed out of every device at once and cannot sign in until restored.',
          perform: (p, r) => setStaffStatus(ctx, p, r, 'archived'),
        }),
        restore: recordAction(staffAccess, {
          icon: 'RotateCcw', allowed: () => true, appliesTo: (r) => Number(r.params.status) === 0,
          perform: (p, r) => setStaffStatus(ctx, p, r, 'active'),
        }),
        resetPin: recordAction(staffAccess, {
          icon: 'Key', variant: 'danger', allowed: () => true,
          guard: 'Set a new PIN for this staff member? They are signed out of every device.',
          perform: async (p, r) => {
            const pin = newPin();
            await resetStaffPin(ctx, p, Number(r.id()), pin);
            return { message: `New PIN for ${r.params.name}: ${pin}. Give it to them now; it is not shown again.`, type: 'info' };
          },
        }),
        testPush: testPushAction(ctx, staffAccess, (r) => ({ staff_id: Number(r.id()) })),
      },
    },
    {
      model: Designation, scope: { schoolColumn: 'school_id' }, access: roleAccess.designations,
      options: {
        navigation: nav.staff,
        sort: { sortBy: 'name', direction: 'asc' },
        listProperties: ['id', 'name', 'created_at'],
        filterProperties: ['name'],
        showProperties: ['school_id', 'id', 'name', 'rbac', 'created_at', 'updated_at'],
        editProperties: ['school_id', 'name', 'rbac'],
        properties: { name: { isTitle: true }, ...rbacProperties('Permissions') },
      },
      services: {
        noun: 'Designation',
        fields: { name: 'text', rbac: 'object' },
        create: (c, p, input) => createDesignation(c, p, input as never),
        update: (c, p, i, changes) => updateDesignation(c, p, i, changes as never),
        remove: (c, p, i) => deleteDesignation(c, p, i),
      },
    },
    {
      model: Notice, scope: { schoolColumn: 'school_id', softDelete: 'notice_deleted', enrich: audienceEnricher('noticeboard') }, access: roleAccess.school,
      options: {
        navigation: nav.communication,
        sort: { sortBy: 'created_at', direction: 'desc' },
        listProperties: ['id', 'notice_title', 'notice_type', 'is_urgent', 'is_important', 'publish_at', 'published_at', 'created_at'],
        filterProperties: ['notice_title', 'notice_type', 'is_urgent', 'is_important', 'notice_deleted', 'created_at'],
        showProperties: [
          'school_id', 'id', 'notice_title', 'notice_type', 'is_urgent', 'is_important', 'notice_desc', ...audiencePropertyNames, 'publish_at', 'published_at', 'created_by_type',
          'created_by_id', 'notice_deleted', 'created_at', 'updated_at',
        ],
        editProperties: ['school_id', 'notice_title', 'notice_type', 'is_urgent', 'is_important', 'publish_at', 'notice_desc', ...audiencePropertyNames],
        properties: {
          ...audienceProperties,
          notice_title: { isTitle: true },
          notice_type: { availableValues: choices(noticeTypes) },
          notice_desc: textarea,
          notice_deleted: deletedFlag,
          created_at: { isVisible: { list: true, filter: true, show: true, edit: false } },
        },
      },
      services: {
        noun: 'Notice',
        fields: { notice_title: 'text', notice_type: 'text', is_urgent: 'boolean', is_important: 'boolean', publish_at: 'text', notice_desc: 'nullableText', ...audienceFormFields },
        create: withAudience(1, (c, p, input) => createNotice(c, p, input as never)),
        update: withAudience(1, (c, p, i, changes) => updateNotice(c, p, i, changes as never)),
        remove: (c, p, i) => deleteNotice(c, p, i),
      },
      extraActions: reachActions(ctx, 'noticeboard'),
    },
    {
      model: Activity, scope: { schoolColumn: 'school_id', softDelete: 'deleted_status', enrich: audienceEnricher('activity') }, access: roleAccess.school,
      options: {
        navigation: nav.communication,
        sort: { sortBy: 'created_at', direction: 'desc' },
        listProperties: ['id', 'title', 'activity_type', 'status', 'staff_id', 'student_id', 'created_at'],
        filterProperties: ['title', 'activity_type', 'status', 'staff_id', 'student_id', 'deleted_status', 'created_at'],
        showProperties: [
          'school_id', 'id', 'title', 'activity_type', 'status', 'publish_at', 'published_at', 'staff_id', ...audiencePropertyNames, 'description', 'deleted_status', 'created_at',
          'updated_at',
        ],
        editProperties: ['school_id', 'title', 'activity_type', 'status', 'publish_at', 'staff_id', ...audiencePropertyNames, 'description'],
        properties: {
          ...audienceProperties,
          title: { isTitle: true },
          activity_type: { availableValues: choices(activityTypes) },
          status: { availableValues: choices(activityStatuses) },
          staff_id: ref('staff'),
          student_id: ref('students'),
          description: textarea,
          deleted_status: deletedFlag,
          created_at: { isVisible: { list: true, filter: true, show: true, edit: false } },
        },
      },
      services: {
        noun: 'Activity',
        fields: { title: 'text', activity_type: 'text', status: 'text', publish_at: 'text', staff_id: 'number', description: 'nullableText', ...audienceFormFields },
        create: withAudience(1, (c, p, input) => createActivity(c, p, input as never)),
        update: withAudience(1, (c, p, i, changes) => updateActivity(c, p, i, changes as never)),
        remove: (c, p, i) => deleteActivity(c, p, i),
      },
      extraActions: reachActions(ctx, 'activity'),
    },
    {
      model: WriteToRequest, scope: { schoolColumn: 'school_id' }, access: roleAccess.school,
      options: {
        navigation: nav.communication,
        sort: { sortBy: 'created_at', direction: 'desc' },
        listProperties: ['id', 'subject', 'type', 'status', 'student_id', 'assigned_staff_id', 'replies_count', 'created_at'],
        filterProperties: ['subject', 'type', 'status', 'parent_id', 'student_id', 'assigned_staff_id', 'created_at'],
        showProperties: [
          'school_id', 'id', 'subject', 'type', 'status', 'parent_id', 'student_id', 'assigned_staff_id', 'leave_from', 'leave_to', 'message',
          'replies_count', 'resolved_at', 'created_at', 'updated_at',
        ],
        properties: {
          subject: { isTitle: true },
          type: { availableValues: choices(writeToTypes) },
          status: { availableValues: choices(writeToStatuses) },
          parent_id: ref('parents'),
          student_id: ref('students'),
          assigned_staff_id: ref('staff'),
          message: textarea,
          created_at: { isVisible: { list: true, filter: true, show: true, edit: false } },
        },
      },
      services: { noun: 'Write-to request' },
      extraActions: {
        resolve: recordAction(roleAccess.school, {
          icon: 'CheckCircle', allowed: () => true, appliesTo: (r) => r.params.status === 'open' || r.params.status === 'in_progress',
          perform: async (p, r) => {
            await resolveWriteTo(ctx, p, Number(r.id()));
            return { message: `"${r.params.subject}" resolved` };
          },
        }),
        replies: {
          actionType: 'record', component: false, icon: 'MessageCircle',
          isAccessible: ({ currentAdmin }) => allows(roleAccess.school, currentAdmin as ConsoleAdmin, 'read'),
          handler: async (_request, _response, context) => ({
            record: context.record!.toJSON(context.currentAdmin),
            redirectUrl: `${context.h.resourceUrl({ resourceId: 'write_to_replies' })}?filters.write_to_id=${context.record!.id()}`,
          }),
        },
      },
    },
    {
      model: WriteToReply, scope: { schoolColumn: 'school_id' }, access: roleAccess.readOnly,
      options: {
        navigation: nav.communication,
        sort: { sortBy: 'id', direction: 'asc' },
        listProperties: ['id', 'write_to_id', 'author_type', 'author_name', 'message', 'created_at'],
        filterProperties: ['write_to_id', 'author_type', 'author_name', 'created_at'],
        showProperties: ['school_id', 'id', 'write_to_id', 'author_type', 'author_id', 'author_name', 'message', 'created_at'],
        properties: {
          write_to_id: ref('write_to_requests'),
          author_type: { availableValues: choices(['parent', 'staff']) },
          message: { type: 'textarea' },
          created_at: { isVisible: { list: true, filter: true, show: true, edit: false } },
        },
      },
      services: { noun: 'Reply' },
    },
    {
      model: Comment, scope: { schoolColumn: 'school_id', softDelete: 'deleted_status' }, access: roleAccess.school,
      options: {
        navigation: nav.communication,
        sort: { sortBy: 'created_at', direction: 'desc' },
        listProperties: ['id', 'entity_type', 'entity_id', 'parent_id', 'content', 'created_at'],
        filterProperties: ['entity_type', 'entity_id', 'parent_id', 'content', 'deleted_status', 'created_at'],
        showProperties: ['school_id', 'id', 'entity_type', 'entity_id', 'parent_id', 'content', 'deleted_status', 'created_at'],
        properties: {
          entity_type: { availableValues: choices(entityTypes) },
          parent_id: ref('parents'),
          deleted_status: deletedFlag,
          created_at: { isVisible: { list: true, filter: true, show: true, edit: false } },
        },
      },
      services: { noun: 'Comment', remove: (c, p, i) => deleteComment(c, p, i) },
    },
    {
      model: Reaction, scope: { schoolColumn: 'school_id' }, access: roleAccess.readOnly,
      options: {
        navigation: nav.communication,
        sort: { sortBy: 'created_at', direction: 'desc' },
        listProperties: ['id', 'entity_type', 'entity_id', 'reaction_type', 'parent_id', 'created_at'],
        filterProperties: ['entity_type', 'entity_id', 'reaction_type', 'parent_id'],
        showProperties: ['school_id', 'id', 'entity_type', 'entity_id', 'reaction_type', 'parent_id', 'created_at'],
        properties: {
          entity_type: { availableValues: choices(entityTypes) },
          reaction_type: { availableValues: choices(reactionTypes) },
          parent_id: ref('parents'),
          created_at: { isVisible: { list: true, filter: true, show: true, edit: false } },
        },
      },
      services: { noun: 'Reaction' },
    },
    {
      model: DiaryEntry, scope: { schoolColumn: 'school_id', softDelete: 'deleted_status' }, access: roleAccess.school,
      options: {
        navigation: nav.classroom,
        sort: { sortBy: 'created_at', direction: 'desc' },
        listProperties: ['id', 'title', 'grade', 'student_id', 'staff_id', 'due_date', 'created_at'],
        filterProperties: ['title', 'grade', 'student_id', 'staff_id', 'due_date', 'deleted_status'],
        showProperties: ['school_id', 'id', 'title', 'grade', 'student_id', 'staff_id', 'due_date', 'description', 'deleted_status', 'created_at', 'updated_at'],
        editProperties: ['title', 'due_date', 'description'],
        properties: {
          title: { isTitle: true },
          student_id: ref('students'),
          staff_id: ref('staff', readOnly),
          description: textarea,
          deleted_status: deletedFlag,
          created_at: { isVisible: { list: true, filter: true, show: true, edit: false } },
        },
      },
      services: {
        noun: 'Diary entry',
        fields: { title: 'text', due_date: 'date', description: 'nullableText' },
        update: (c, p, i, changes) => updateDiaryEntry(c, p, i, changes as never),
        remove: (c, p, i) => deleteDiaryEntry(c, p, i),
      },
    },
    {
      model: Attendance, scope: { schoolColumn: 'school_id' }, access: roleAccess.readOnly,
      options: {
        navigation: nav.classroom,
        sort: { sortBy: 'date', direction: 'desc' },
        listProperties: ['id', 'date', 'student_id', 'status', 'marked_by_staff_id'],
        filterProperties: ['date', 'student_id', 'status', 'marked_by_staff_id'],
        showProperties: ['school_id', 'id', 'date', 'student_id', 'status', 'marked_by_staff_id', 'created_at', 'updated_at'],
        properties: {
          status: { availableValues: choices(attendanceStatuses) },
          student_id: ref('students'),
          marked_by_staff_id: ref('staff'),
        },
      },
      services: { noun: 'Attendance mark' },
    },
    {
      model: Grade, scope: { schoolColumn: 'school_id' }, access: roleAccess.school,
      options: {
        navigation: nav.setup,
        sort: { sortBy: 'sort_order', direction: 'asc' },
        listProperties: ['id', 'name', 'class_teacher_id', 'sort_order'],
        filterProperties: ['name', 'class_teacher_id'],
        showProperties: ['school_id', 'id', 'name', 'class_teacher_id', 'sort_order', 'created_at', 'updated_at'],
        editProperties: ['school_id', 'name', 'class_teacher_id', 'sort_order'],
        properties: { name: { isTitle: true }, class_teacher_id: ref('staff') },
      },
      services: {
        noun: 'Grade',
        fields: { name: 'text', class_teacher_id: 'reference', sort_order: 'number' },
        create: (c, p, input) => createGrade(c, p, parseInput(gradeInput, input)),
        update: (c, p, i, changes) => updateGrade(c, p, i, parseInput(gradeInput.partial(), changes)),
        remove: (c, p, i) => deleteGrade(c, p, i),
      },
    },
    {
      model: AdminUser, scope: { schoolColumn: 'school_id', secret: ['password_hash'] }, access: roleAccess.adminUsers,
      options: {
        navigation: nav.setup,
        sort: { sortBy: 'name', direction: 'asc' },
        listProperties: ['id', 'name', 'email', 'role', 'created_at'],
        filterProperties: ['name', 'email', 'role'],
        showProperties: ['school_id', 'id', 'name', 'email', 'role', 'created_at', 'updated_at'],
        editProperties: ['school_id', 'name', 'email', 'role', 'password'],
        properties: {
          name: { isTitle: true },
          role: { availableValues: choices(adminRoles) },
          password: { type: 'password', isVisible: { list: false, filter: false, show: false, edit: true }, description: 'New password (8 to 128 characters); leave empty to keep the current one' },
          created_at: { isVisible: { list: true, filter: true, show: true, edit: false } },
        },
      },
      services: {
        noun: 'Admin user',
        fields: { name: 'text', email: 'text', role: 'text', password: 'text' },
        create: (c, p, input) => createAdmin(c, p, parseInput(newAdminInput, input)),
        update: (c, p, i, changes) => updateAdmin(c, p, i, parseInput(newAdminInput.partial(), changes)),
        remove: (c, p, i) => deleteAdmin(c, p, i),
      },
    },
    {
      model: School, scope: { schoolColumn: 'id', resourceId: 'school_settings' }, access: roleAccess.schoolSettings,
      options: {
        navigation: nav.setup,
        listProperties: ['id', 'name', 'timezone', 'status'],
        filterProperties: ['id', 'name'],
        showProperties: ['id', 'name', 'timezone', 'status', 'created_at', 'updated_at'],
        editProperties: ['name', 'timezone'],
        properties: {
          name: { isTitle: true },
          timezone: { description: "An IANA time zone such as Asia/Kolkata: parents' quiet hours are its local hours" },
        },
      },
      services: {
        noun: 'School settings',
        fields: { name: 'text', timezone: 'text' },
        update: (_c, p, _id, changes) => updateSchoolSettings(p, parseInput(schoolChangesInput, changes)),
      },
    },
    {
      model: School, scope: { schoolColumn: 'id' }, access: roleAccess.schools,
      options: {
        navigation: nav.setup,
        sort: { sortBy: 'id', direction: 'asc' },
        listProperties: ['id', 'name', 'status', 'created_at'],
        filterProperties: ['id', 'name', 'status'],
        showProperties: ['id', 'name', 'status', 'created_at', 'updated_at'],
        editProperties: ['school_code', 'name', 'admin_name', 'admin_email', 'admin_password'],
        properties: {
          name: { isTitle: true },
          status: { availableValues: choices(['active', 'suspended']) },
          school_code: { type: 'string', isRequired: true, description: 'The school id: letters, digits, - and _', isVisible: { list: false, filter: false, show: false, edit: true } },
          admin_name: { type: 'string', isRequired: true, description: 'Its first super_admin', isVisible: { list: false, filter: false, show: false, edit: true } },
          admin_email: { type: 'string', isRequired: true, isVisible: { list: false, filter: false, show: false, edit: true } },
          admin_password: { type: 'password', isRequired: true, isVisible: { list: false, filter: false, show: false, edit: true } },
          created_at: { isVisible: { list: true, filter: true, show: true, edit: false } },
        },
      },
      services: {
        noun: 'School',
        fields: { school_code: 'text', name: 'text', admin_name: 'text', admin_email: 'text', admin_password: 'text' },
        createSchool: async (c, input) => {
          const v = parseInput(newSchoolInput, input);
          const { school } = await createSchool(c, { school_id: v.school_code, school_name: v.name, admin: { name: v.admin_name, email: v.admin_email, password: v.admin_password } });
          return { id: school.id };
        },
      },
      extraActions: {
        suspend: recordAction(roleAccess.schools, {
          icon: 'PauseCircle', variant: 'danger', schoolColumn: 'id', allowed: isPlatformAdmin, appliesTo: (r) => r.params.status === 'active',
          guard: 'Suspend this school? Every session of its parents, staff and admins ends at once.',
          perform: async (_p, r) => {
            const { sessions_ended } = await setSchoolStatus(ctx, String(r.id()), 'suspended');
            return { message: `School suspended; ${sessions_ended} session(s) ended` };
          },
        }),
        resume: recordAction(roleAccess.schools, {
          icon: 'PlayCircle', schoolColumn: 'id', allowed: isPlatformAdmin, appliesTo: (r) => r.params.status === 'suspended',
          perform: async (_p, r) => {
            await setSchoolStatus(ctx, String(r.id()), 'active');
            return { message: 'School resumed' };
          },
        }),
      },
    },
    {
      model: Session, scope: { schoolColumn: 'school_id', secret: ['token_hash', 'fcm_token'] }, access: roleAccess.devices,
      options: {
        navigation: nav.access,
        sort: { sortBy: 'last_seen_at', direction: 'desc' },
        listProperties: ['id', 'user_type', 'user_id', 'device_name', 'ip', 'last_seen_at', 'active'],
        filterProperties: ['user_type', 'user_id', 'device_name', 'active', 'last_seen_at', 'expires_at'],
        showProperties: ['school_id', 'id', 'user_type', 'user_id', 'device_id', 'device_name', 'user_agent', 'ip', 'created_at', 'last_seen_at', 'expires_at', 'active', 'revoked_at'],
        properties: {
          user_type: { availableValues: choices(['parent', 'staff', 'admin']) },
          created_at: { isVisible: { list: false, filter: true, show: true, edit: false } },
        },
      },
      services: { noun: 'Session' },
      extraActions: {
        revoke: recordAction(roleAccess.devices, {
          icon: 'LogOut', variant: 'danger', allowed: () => true, appliesTo: (r) => r.params.active === true || Number(r.params.active) === 1,
          guard: 'End this session? The device is signed out on its next request.',
          perform: async (p, r) => {
            await revokeSessionById(ctx, r.params.school_id == null ? null : p.schoolId, Number(r.id()));
            return { message: 'Session ended' };
          },
        }),
        testPush: testPushAction(ctx, roleAccess.devices, async (r, p) => {
          // The device's push token stays on the server: read here, for the school of the session, and never sent to the browser.
          const row = await Session.findOne({ where: { id: Number(r.id()), school_id: p.schoolId }, attributes: ['fcm_token'], raw: true });
          if (!row?.fcm_token) throw badRequest('This session has no push token: the device never registered one, or it was cleared');
          return { fcm_token: row.fcm_token };
        }),
      },
    },
    {
      model: Notification, scope: { schoolColumn: 'school_id', secret: ['address'], conceal: concealedMessage }, access: roleAccess.devicesReadOnly,
      options: {
        navigation: nav.access,
        sort: { sortBy: 'created_at', direction: 'desc' },
        listProperties: ['id', 'event', 'target_type', 'target_id', 'title', 'status', 'attempts', 'deliver_after', 'created_at'],
        filterProperties: ['event', 'status', 'target_type', 'target_id', 'channel', 'deliver_after', 'created_at'],
        showProperties: [
          'school_id', 'id', 'event', 'channel', 'entity_type', 'entity_id', 'target_type', 'target_id', 'title', 'body', 'status', 'attempts',
          'last_error', 'deliver_after', 'next_attempt_at', 'sent_at', 'created_at', 'updated_at',
        ],
        properties: {
          status: { availableValues: choices(notificationStatuses) },
          target_type: { availableValues: choices(['parent', 'staff', 'token']) },
          created_at: { isVisible: { list: true, filter: true, show: true, edit: false } },
        },
      },
      services: { noun: 'Notification' },
    },
    {
      model: AuditEvent, scope: { schoolColumn: 'school_id', enrich: changesAsText }, access: roleAccess.auditLog,
      options: {
        navigation: nav.access,
        sort: { sortBy: 'id', direction: 'desc' },
        listProperties: ['id', 'at', 'actor_type', 'actor_name', 'door', 'action', 'entity_type', 'entity_id'],
        filterProperties: ['at', 'actor_type', 'actor_id', 'door', 'action', 'entity_type', 'entity_id'],
        showProperties: ['school_id', 'id', 'at', 'actor_type', 'actor_id', 'actor_name', 'door', 'action', 'entity_type', 'entity_id', 'changes', 'ip', 'request_id'],
        properties: {
          action: { isTitle: true },
          actor_type: { availableValues: choices(actorTypes) },
          door: { availableValues: choices(doors) },
          entity_type: { availableValues: choices(auditEntityTypes) },
          changes: { type: 'textarea', description: 'Each changed field as [before, after]; secrets read [redacted]' },
        },
      },
      services: { noun: 'Audit event' },
    },
    {
      model: Webhook, scope: { schoolColumn: 'school_id', softDelete: 'deleted_status', secret: ['secret'] }, access: roleAccess.webhooks,
      options: {
        navigation: nav.setup,
        sort: { sortBy: 'id', direction: 'asc' },
        listProperties: ['id', 'url', 'events', 'active', 'disabled_reason', 'created_at'],
        filterProperties: ['url', 'active', 'deleted_status', 'created_at'],
        showProperties: ['school_id', 'id', 'url', 'events', 'active', 'disabled_reason', 'failing_since', 'deleted_status', 'created_at', 'updated_at'],
        editProperties: ['url', 'events', 'active'],
        properties: {
          url: { isTitle: true, description: 'https under production; never a private or reserved address' },
          events: { type: 'string', isArray: true, availableValues: choices(webhookEventChoices, { '*': 'every event' }), description: 'The events to send; * for every event' },
          active: { description: 'A webhook whose every delivery failed for 3 days is switched off; switch it on here' },
          disabled_reason: readOnly,
          failing_since: readOnly,
          deleted_status: deletedFlag,
          created_at: { isVisible: { list: true, filter: true, show: true, edit: false } },
        },
      },
      services: {
        noun: 'Webhook',
        fields: { url: 'text', events: 'list', active: 'boolean' },
        create: async (c, p, input) => {
          const { id: created, secret } = await createWebhook(c, p, input as never);
          return { id: created, notice: `Webhook created. Its signing secret, shown this once: ${secret}` };
        },
        update: (c, p, i, changes) => updateWebhook(c, p, i, changes as never),
        remove: (c, p, i) => deleteWebhook(c, p, i),
      },
      extraActions: {
        deliveries: {
          actionType: 'record', component: false, icon: 'List',
          isAccessible: ({ currentAdmin }) => allows(roleAccess.webhookDeliveries, currentAdmin as ConsoleAdmin, 'read'),
          handler: async (_request, _response, context) => ({
            record: context.record!.toJSON(context.currentAdmin),
            redirectUrl: `${context.h.resourceUrl({ resourceId: 'webhook_deliveries' })}?filters.webhook_id=${context.record!.id()}`,
          }),
        },
      },
    },
    {
      model: WebhookDelivery, scope: { schoolColumn: 'school_id' }, access: roleAccess.webhookDeliveries,
      options: {
        navigation: nav.setup,
        sort: { sortBy: 'created_at', direction: 'desc' },
        listProperties: ['id', 'webhook_id', 'event', 'status', 'attempts', 'response_status', 'created_at', 'delivered_at'],
        filterProperties: ['webhook_id', 'event', 'status', 'event_id', 'created_at'],
        showProperties: [
          'school_id', 'id', 'webhook_id', 'event_id', 'event', 'status', 'attempts', 'response_status', 'last_error', 'next_attempt_at', 'payload',
          'created_at', 'delivered_at',
        ],
        properties: {
          webhook_id: ref('webhooks'),
          status: { availableValues: choices(webhookDeliveryStatuses) },
          payload: { type: 'textarea' },
          created_at: { isVisible: { list: true, filter: true, show: true, edit: false } },
        },
      },
      services: { noun: 'Webhook delivery' },
    },
  ];
  return specs.map((spec) => {
    const editProperties = withSchoolOnNew(spec);
    return build(ctx, { ...spec, options: { ...spec.options, ...(editProperties ? { editProperties } : {}) } });
  });
}

/** An event's changes shown as the JSON they are, not as one console field per changed field. */
async function changesAsText(rows: Array<Record<string, unknown>>): Promise<void> {
  for (const row of rows) row.changes = row.changes == null ? null : JSON.stringify(row.changes);
}

/** The operator names the school of a new record; the field is invisible to everyone else. */
function withSchoolOnNew(spec: Spec): string[] | undefined {
  const list = spec.options.editProperties;
  if (!list || spec.scope.schoolColumn !== 'school_id' || list.includes('school_id')) return list;
  return spec.services.create ? withSchool(list) : list;
}

function rbacProperties(label: string): Record<string, PropertyOptions> {
  const out: Record<string, PropertyOptions> = { rbac: { type: 'mixed', description: label, isVisible: { list: false, filter: false, show: true, edit: true } } };
  for (const feature of features) out[`rbac.${feature}`] = { availableValues: choices(levels) };
  return out;
}

/**
 * Archive and Restore each name the state they want, so a double click or two admins at once cannot
 * flip it back: the service's status change is idempotent and, like its archive toggle, ends every
 * session of the staff member when it archives.
 */
async function setStaffStatus(ctx: AppContext, principal: Principal, record: BaseRecord, status: 'active' | 'archived') {
  await updateStaff(ctx, principal, Number(record.id()), { status });
  return { message: status === 'archived' ? `${record.params.name} archived; every session ended` : `${record.params.name} restored` };
}

/** Send test push (diagnostics: super_admin and it_contact): at once, to the record's devices, with the results as the notice. */
function testPushAction(ctx: AppContext, access: RoleAccess, target: (record: BaseRecord, principal: Principal) => TestPushInput | Promise<TestPushInput>) {
  const spec: RecordActionSpec = {
    icon: 'Bell', allowed: (admin) => diagnosticsRoles.includes(admin.role),
    perform: async (p, r) => {
      const { sent, failed, results } = await sendTestPush(ctx, p, await target(r, p));
      const detail = results.map((x) => `${x.target}: ${x.ok ? 'sent' : `failed (${x.error ?? 'unknown'})`}`).join('; ');
      return { message: `Test push: ${sent} sent, ${failed} failed. ${detail}`, type: failed > 0 ? 'error' : 'success' };
    },
  };
  return recordAction(access, spec);
}

const gradeInput = z.object({ name: z.string().trim().min(1).max(60), class_teacher_id: id().nullable().optional(), sort_order: z.number().int().min(0).max(10_000).optional() });
const newAdminInput = z.object({ name: name(), email: email(), password: password(), role: z.enum(schoolAdminRoles) });
const newSchoolInput = z.object({
  school_code: z.string().trim().regex(SCHOOL_ID_PATTERN, 'is not a valid school id'),
  name: z.string().trim().min(1).max(200).optional(),
  admin_name: name(),
  admin_email: email(),
  admin_password: password(),
});
