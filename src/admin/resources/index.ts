import type { ResourceWithOptions } from 'adminjs';
import type { AppContext } from '../../context.js';
import { activitiesResource } from './activities.js';
import { adminUsersResource } from './admin-users.js';
import { attendanceResource } from './attendance.js';
import { auditLogResource } from './audit-log.js';
import { commentsResource } from './comments.js';
import { designationsResource } from './designations.js';
import { diaryEntriesResource } from './diary-entries.js';
import { gradesResource } from './grades.js';
import { groupMembersResource } from './group-members.js';
import { groupsResource } from './groups.js';
import { noticesResource } from './notices.js';
import { notificationsResource } from './notifications.js';
import { parentsResource } from './parents.js';
import { reactionsResource } from './reactions.js';
import { schoolSettingsResource } from './school-settings.js';
import { schoolsResource } from './schools.js';
import { sessionsResource } from './sessions.js';
import { staffResource } from './staff.js';
import { studentsResource } from './students.js';
import { webhookDeliveriesResource } from './webhook-deliveries.js';
import { webhooksResource } from './webhooks.js';
import { writeToRepliesResource } from './write-to-replies.js';
import { writeToRequestsResource } from './write-to-requests.js';

/** Every resource of CONTRACT.md section 16, one file each, in the order of the menu. */
const resources = [
  studentsResource, parentsResource, groupsResource, groupMembersResource,
  staffResource, designationsResource,
  noticesResource, activitiesResource, writeToRequestsResource, writeToRepliesResource, commentsResource, reactionsResource,
  diaryEntriesResource, attendanceResource,
  gradesResource, adminUsersResource, schoolSettingsResource, schoolsResource,
  sessionsResource, notificationsResource, auditLogResource,
  webhooksResource, webhookDeliveriesResource,
];

export const consoleResources = (ctx: AppContext): ResourceWithOptions[] => resources.map((resource) => resource(ctx));
