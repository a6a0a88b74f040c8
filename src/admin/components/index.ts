import { auditChanges } from './audit-changes.js';
import { actionForm } from './action-form.js';
import { card } from './card.js';
import { childrenList } from './children-list.js';
import { codeLabel } from './code-label.js';
import { dataExport } from './data-export.js';
import { eraseStudent } from './erase-student.js';
import { groupMembers } from './group-members.js';
import { importRoster } from './import-roster.js';
import { itemReach } from './item-reach.js';
import { linkedName } from './linked-name.js';
import { namePicker } from './name-picker.js';
import { newWithSecret } from './new-with-secret.js';
import { permissionLevels } from './permission-levels.js';
import { platformOnly } from './platform-only.js';
import { prefixSelect } from './prefix-select.js';
import { quickSearchList } from './quick-search-list.js';
import { schoolDashboard } from './school-dashboard.js';
import { secretPanel } from './secret-panel.js';
import { valueList } from './value-list.js';
import { writeToThread } from './write-to-thread.js';

/**
 * Each file's source, and the components AdminJS finds by name: the ones resources and the dashboard
 * name, and AdminJS's own that the console replaces (DefaultPropertyValue, DefaultArrayListProperty).
 */
const sources = [
  card, codeLabel, valueList, linkedName, secretPanel, actionForm, newWithSecret, prefixSelect, namePicker, permissionLevels, auditChanges, quickSearchList, childrenList, writeToThread, groupMembers,
  schoolDashboard, platformOnly, importRoster, itemReach, dataExport, eraseStudent,
];
const registered: Record<string, string> = {
  SchoolDashboard: 'SchoolDashboard', PlatformOnly: 'PlatformOnly', ImportRoster: 'ImportRoster', ItemReach: 'ItemReach', DataExport: 'DataExport',
  EraseStudent: 'EraseStudent', DefaultPropertyValue: 'DefaultPropertyValue', ValueList: 'ValueList', DefaultArrayListProperty: 'ValueList',
  LinkedName: 'LinkedName', ActionForm: 'ActionForm', NewWithSecret: 'NewWithSecret', PrefixSelect: 'PrefixSelect', NamePicker: 'NamePicker',
  PermissionLevels: 'PermissionLevels', PermissionLevelsEdit: 'PermissionLevelsEdit', EffectivePermissions: 'EffectivePermissions', AuditChanges: 'AuditChanges', QuickSearchList: 'QuickSearchList', ChildrenList: 'ChildrenList', WriteToThread: 'WriteToThread', GroupMemberList: 'GroupMemberList', AddMembers: 'AddMembers',
};

for (const fn of new Set(Object.values(registered))) {
  if (!sources.some((s) => s.includes(`function ${fn}(`))) throw new Error(`The console's components define no ${fn}`);
}

/**
 * The console's own browser components, served as AdminJS's components.bundle.js. AdminJS would
 * bundle components with rollup and babel at start-up (production) or on first request
 * (development), which costs seconds and memory and writes to disk; these are a few plain functions
 * over the globals AdminJS's pages already load (React, AdminJS, AdminJSDesignSystem), written in
 * the JavaScript every current browser runs, so they are sent as they are, one file each joined here.
 */
export const componentsBundle = `(function () {
var h = React.createElement;
var DS = AdminJSDesignSystem;
${sources.join('')}
AdminJS.UserComponents = Object.assign(AdminJS.UserComponents || {}, {
${Object.entries(registered).map(([name, fn]) => `  ${name}: ${fn},`).join('\n')}
});
})();
`;
