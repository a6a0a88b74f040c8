/**
 * Permissions on a page, one row per feature in words: a designation's levels ("Create"), or a
 * staff member's effective ones with where each comes from ("Create, from Office Staff").
 */
export const permissionLevels = String.raw`
function PermissionTable(props) {
  return h(DS.Table, { 'data-testid': props.testId },
    h(DS.TableHead, null, h(DS.TableRow, null, h(DS.TableCell, null, 'Feature'), h(DS.TableCell, null, 'May'))),
    h(DS.TableBody, null, props.rows.map(function (r) {
      return h(DS.TableRow, { key: r.feature }, h(DS.TableCell, null, r.feature), h(DS.TableCell, null, r.level));
    })));
}

function PermissionLevels(props) {
  var property = props.property;
  var t = AdminJS.useTranslation();
  var label = t.translateProperty(property.label, property.resourceId);
  var levels = AdminJS.flat.get(props.record.params, property.path) || {};
  var rows = (property.subProperties || []).map(function (sub) {
    var key = sub.propertyPath.slice(property.propertyPath.length + 1);
    var feature = t.translateProperty(sub.label, sub.resourceId);
    return { feature: feature, level: levels[key] ? labelFor(sub, levels[key]) : 'None' };
  });
  return h(DS.ValueGroup, { label: label }, h(PermissionTable, { rows: rows, testId: 'permission-levels' }));
}

function EffectivePermissions(props) {
  var property = props.property;
  var label = AdminJS.useTranslation().translateProperty(property.label, property.resourceId);
  var rows = AdminJS.flat.get(props.record.params, property.path) || [];
  return h(DS.ValueGroup, { label: label }, h(PermissionTable, { rows: rows, testId: 'effective-permissions' }));
}
`;
