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
  logout: 'signed out', submit: 'submitted', approve: 'approved', calendar_feed_create: 'calendar subscription created',
  calendar_feed_replace: 'calendar subscription replaced', calendar_feed_revoke: 'calendar subscription revoked',
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

const each = (entities: string[], verbs: string[]) => entities.flatMap((entity) => verbs.map((verb) => `${entity}.${verb}`));

/** The actions the services record, for the Audit log's filter: each entity's changes, then the sign-ins and resets. */
export const auditActions: string[] = [
  ...each(
    ['student', 'parent', 'staff', 'admin_user', 'designation', 'grade', 'group', 'activity', 'noticeboard', 'write_to', 'comment', 'diary', 'attendance', 'webhook', 'school', 'admission',
      'session', 'notification', 'preference', 'reaction', 'form', 'form_response', 'attachment'],
    ['create', 'update', 'delete'],
  ),
  'student.archive', 'student.restore', 'student.erase', 'staff.archive', 'staff.restore', 'staff.assign', 'staff.update_assignment', 'staff.unassign',
  ...each(['student', 'parent', 'staff'], ['address_add', 'address_update', 'address_remove']),
  'group.add_member', 'group.update_member', 'group.remove_member', 'activity.publish', 'noticeboard.publish',
  ...each(['activity', 'noticeboard'], ['remind', 'audience_add', 'audience_update', 'audience_remove']),
  ...each(['activity', 'noticeboard', 'diary'], ['read']),
  'write_to.reply', 'write_to.reply_update', 'write_to.reply_delete', 'write_to.resolve', 'write_to.archive', 'session.revoke', 'session.logout', 'session.prune',
  'webhook.disable', 'import.apply', 'pin.reset', 'login.success', 'login.failure', 'login.lockout', 'form.close',
  'parent.calendar_feed_create', 'parent.calendar_feed_replace', 'parent.calendar_feed_revoke',
];
