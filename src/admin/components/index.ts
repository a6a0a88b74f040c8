import { card } from './card.js';
import { dataExport } from './data-export.js';
import { eraseStudent } from './erase-student.js';
import { importRoster } from './import-roster.js';
import { itemReach } from './item-reach.js';
import { platformOnly } from './platform-only.js';
import { schoolDashboard } from './school-dashboard.js';

/** Pieces the components share; not components AdminJS names. */
const helpers = [card];

/** The components resources and the dashboard name, each registered under its function's name. */
const components = [schoolDashboard, platformOnly, importRoster, itemReach, dataExport, eraseStudent];

const nameOf = (source: string) => /^function (\w+)/.exec(source.trim())![1]!;

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
${[...helpers, ...components].join('')}
AdminJS.UserComponents = Object.assign(AdminJS.UserComponents || {}, {
${components.map((c) => `  ${nameOf(c)}: ${nameOf(c)},`).join('\n')}
});
})();
`;
