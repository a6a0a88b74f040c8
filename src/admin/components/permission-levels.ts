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

function featureOf(property, sub) {
  var key = sub.propertyPath.slice(property.propertyPath.length + 1);
  return { key: key, label: (property.custom.features || {})[key] || key };
}

function PermissionLevels(props) {
  var property = props.property;
  var label = AdminJS.useTranslation().translateProperty(property.label, property.resourceId);
  var levels = AdminJS.flat.get(props.record.params, property.path) || {};
  var rows = (property.subProperties || []).map(function (sub) {
    var feature = featureOf(property, sub);
    return { feature: feature.label, level: levels[feature.key] ? labelFor(sub, levels[feature.key]) : property.custom.unset };
  });
  return h(DS.ValueGroup, { label: label }, h(PermissionTable, { rows: rows, testId: 'permission-levels' }));
}

// The form's permissions: one select of levels per feature, labelled in words; the empty choice keeps the base level.
function PermissionLevelsEdit(props) {
  var property = props.property;
  var t = AdminJS.useTranslation();
  return h(DS.Box, { mb: 'xl' },
    h(DS.Label, null, t.translateProperty(property.label, property.resourceId)),
    property.description ? h(DS.Text, { variant: 'sm', color: 'grey60', mb: 'default' }, property.description) : null,
    (property.subProperties || []).map(function (sub) {
      var feature = featureOf(property, sub);
      var current = props.record.params[sub.propertyPath];
      var unset = { value: '', label: property.custom.unset };
      var options = [unset].concat(sub.availableValues || []);
      var selected = options.find(function (o) { return String(o.value) === String(current == null ? '' : current); }) || unset;
      var error = props.record.errors && props.record.errors[sub.propertyPath];
      return h(DS.FormGroup, { key: feature.key, error: !!error },
        h(DS.Label, { htmlFor: sub.propertyPath }, feature.label),
        h(DS.Select, { inputId: sub.propertyPath, options: options, value: selected, filterOption: startsWithInput,
          onChange: function (o) { props.onChange(sub.propertyPath, o ? o.value : ''); } }),
        error ? h(DS.FormMessage, null, error.message) : null);
    }));
}

function EffectivePermissions(props) {
  var property = props.property;
  var label = AdminJS.useTranslation().translateProperty(property.label, property.resourceId);
  var rows = AdminJS.flat.get(props.record.params, property.path) || [];
  return h(DS.ValueGroup, { label: label }, h(PermissionTable, { rows: rows, testId: 'effective-permissions' }));
}
`;
