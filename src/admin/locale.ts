import type { LocaleTranslations } from 'adminjs';
import { inWords } from './labels/words.js';
import { resourceLabels } from './locale-resources.js';
import { menu } from './labels/menu.js';

/** The words a school office uses, rather than table and column names: for every resource. */
const properties: Record<string, string> = {
  id: 'ID',
  school_id: 'School',
  created_at: 'Created',
  updated_at: 'Last changed',
  name: 'Name',
  email: 'E-mail',
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
  entity_type: 'Kind of item',
  entity_id: 'Item ID',
  item: 'Item',
  title: 'Title',
  description: 'Description',
  message: 'Message',
  grade: 'Grade',
  audience: 'For',
  attachments: 'Files',
  attachment_ids: 'Files',
  audience_grades: 'Grades',
  audience_groups: 'Groups',
  audience_students: 'Students',
  publish_at: 'Publish at',
  published_at: 'Published',
  is_urgent: 'Urgent',
  is_important: 'Important',
};

/**
 * AdminJS's own messages, each a whole sentence with nothing left to fill in: the console shows
 * them as they are, and a message with a {{placeholder}} AdminJS did not fill would show the braces.
 */
const messages: Record<string, string> = {
  successfullyBulkDeleted: 'The chosen records were deleted.',
  successfullyBulkDeleted_plural: 'The chosen records were deleted.',
  successfullyDeleted: 'The record was deleted.',
  successfullyUpdated: 'Your changes were saved.',
  thereWereValidationErrors: 'Some fields need your attention: see the messages under them.',
  forbiddenError: 'You are not allowed to do this. Ask a super admin of your school if you need it.',
  anyForbiddenError: 'You are not allowed to do this. Ask a super admin of your school if you need it.',
  successfullyCreated: 'The record was created.',
  bulkDeleteError: 'Some of the chosen records could not be deleted.',
  errorFetchingRecords: 'The list could not be loaded. Reload the page to try again.',
  errorFetchingRecord: 'The record could not be loaded. Reload the page to try again.',
  noRecordsSelected: 'Choose at least one record first.',
  theseRecordsWillBeRemoved: 'This record will be deleted:',
  theseRecordsWillBeRemoved_plural: 'These records will be deleted:',
  pickSomeFirstToRemove: 'Choose the records to delete first.',
  error404Resource: 'There is no such list in this console.',
  error404Action: 'There is no such action here, or you are not allowed to use it.',
  error404Record: 'This record does not exist, or it is not one of your school\'s.',
  seeConsoleForMore: 'If it happens again, tell your school\'s IT contact.',
  noActionComponent: 'This action has no page.',
  noRecordsInResource: 'Nothing here yet, or nothing matches the search and filters.',
  noRecords: 'Nothing to show',
  confirmDelete: 'Delete this record?',
  invalidCredentials: 'Wrong e-mail or password.',
  keyPlaceholder: 'Name',
  valuePlaceholder: 'Value',
  initialKey: 'New entry',
  keyInUse: 'Each name can be used once.',
  keyValuePropertyDefaultDescription: 'Each value is kept as text, under a name used once.',
  pageNotFound_title: 'Page not found',
  pageNotFound_subtitle: 'There is no such page in this console.',
  componentNotFound_title: 'Nothing to show',
  componentNotFound_subtitle: 'This page has nothing to show yet.',
};

const buttons: Record<string, string> = {
  save: 'Save', addNewItem: 'Add another', filter: 'Filter', filterActive: 'Filter (on)', applyChanges: 'Apply', resetFilter: 'Clear',
  confirmRemovalMany: 'Delete the chosen records', confirmRemovalMany_plural: 'Delete the chosen records', logout: 'Sign out', login: 'Sign in',
  seeTheDocumentation: 'See the documentation', createFirstRecord: 'Add the first one', cancel: 'Cancel', confirm: 'Confirm', contactUs: 'Contact us',
};

const actions: Record<string, string> = { new: 'New', edit: 'Edit', show: 'Details', delete: 'Delete', bulkDelete: 'Delete the chosen', list: 'All' };

/** The New, Edit and Details pages of one kind of record, titled as staff say it: "New webhook", "Edit webhook", "Webhook details". */
function recordPages(one: string): Record<string, string> {
  const lower = one.charAt(0).toLowerCase() + one.slice(1);
  return { new: `New ${lower}`, edit: `Edit ${lower}`, show: `${one} details` };
}

export const consoleLocale = {
  language: 'en',
  availableLanguages: ['en'],
  translations: {
    en: {
      labels: {
        ...Object.fromEntries(Object.entries(resourceLabels).map(([id, r]) => [id, r.label])),
        ...Object.fromEntries(Object.values(menu).map((group) => [group.name, group.name])),
        navigation: 'Menu', dashboard: 'Overview', pages: 'Pages', filters: 'Filters', selectedRecords: 'Chosen', adminVersion: 'Console', appVersion: 'Version',
      },
      properties,
      // A page's heading is its action's label: a list's is its resource's name, a record's pages name what the record is.
      resources: Object.fromEntries(Object.entries(resourceLabels).map(([id, r]) => [id, { properties: r.properties ?? {}, actions: { ...recordPages(r.one), list: r.label, ...r.actions } }])),
      messages,
      buttons,
      actions,
      components: {
        Login: { welcomeHeader: 'School platform', welcomeMessage: 'Sign in with your admin e-mail and password.', properties: { email: 'E-mail', password: 'Password' }, loginButton: 'Sign in' },
        DropZone: {
          placeholder: 'Drop a file here, or click to choose one', acceptedSize: 'The file is too big for this field.', acceptedType: 'This kind of file is not taken here.',
          unsupportedSize: 'The file is too big.', unsupportedType: 'This kind of file is not taken here.',
        },
      },
    } satisfies LocaleTranslations,
  },
};

/** Whether the console has words of its own for a field (the resource's, or the common ones). */
export const hasLabel = (resource: string, field: string): boolean => !!(resourceLabels[resource]?.properties?.[field] ?? properties[field]);

/** A field's label as the console's forms name it (the resource's own, else the common one), else the field in words. */
export function fieldLabel(resource: string | null, field: string, parent?: string): string {
  const label = (resource ? resourceLabels[resource]?.properties?.[field] : undefined) ?? properties[field];
  if (label) return label;
  const last = field.slice(field.lastIndexOf('.') + 1);
  return parent ? `${parent}: ${inWords(last)}` : inWords(field);
}
