import { entityTypeLabels } from './codes.js';
import { inWords } from './words.js';

/** The actions that are not `<entity>.<verb>` read as such. */
const special: Record<string, string> = {
  'pin.reset': 'PIN or password reset', 'login.success': 'Signed in', 'login.failure': 'Sign-in refused', 'login.lockout': 'Locked out after failed sign-ins',
  'session.logout': 'Signed out', 'session.prune': 'Old sessions removed', 'import.apply': 'Import applied',
};

/** What happened to the entity, in the past tense. */
const verbs: Record<string, string> = {
  create: 'created', update: 'changed', delete: 'deleted', archive: 'archived', restore: 'restored', publish: 'published', resolve: 'resolved',
  revoke: 'ended', erase: 'erased', read: 'read', remind: 'reminder sent', reply: 'replied to', reply_update: 'reply changed', reply_delete: 'reply deleted',
  add_member: 'member added', update_member: 'member changed', remove_member: 'member removed', assign: 'student assigned', update_assignment: 'assignment changed',
  unassign: 'student unassigned', address_add: 'address added', address_update: 'address changed', address_remove: 'address removed',
  audience_add: 'audience widened', audience_update: 'audience changed', audience_remove: 'audience narrowed', close: 'closed', disable: 'switched off',
  logout: 'signed out', submit: 'submitted', approve: 'approved',
};

/** An audit event's action in words: "staff.archive" -> "Staff member archived". */
export function auditActionLabel(action: string): string {
  if (special[action]) return special[action];
  const dot = action.indexOf('.');
  if (dot < 0) return inWords(action);
  const entity = action.slice(0, dot);
  const verb = action.slice(dot + 1);
  return `${entityTypeLabels[entity] ?? inWords(entity)} ${verbs[verb] ?? inWords(verb).toLowerCase()}`;
}

/** The actions the services record, for the Audit log's filter: each entity's changes, then the sign-ins and resets. */
export const auditActions: string[] = [
  ...['student', 'parent', 'staff', 'admin_user', 'designation', 'grade', 'group', 'activity', 'noticeboard', 'write_to', 'comment', 'diary', 'attendance', 'webhook', 'school', 'admission', 'session', 'notification', 'reaction']
    .flatMap((entity) => ['create', 'update', 'delete'].map((verb) => `${entity}.${verb}`)),
  'student.archive', 'student.restore', 'student.erase', 'staff.archive', 'staff.restore', 'staff.assign', 'staff.unassign', 'group.add_member', 'group.remove_member',
  'activity.publish', 'activity.remind', 'noticeboard.remind', 'activity.read', 'noticeboard.read', 'write_to.reply', 'write_to.resolve', 'session.revoke',
  'session.logout', 'session.prune', 'webhook.disable', 'preference.update', 'import.apply', 'pin.reset', 'login.success', 'login.failure', 'login.lockout',
];
