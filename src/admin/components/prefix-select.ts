/**
 * A select of a field's values (the Role of an admin user) where typing keeps the labels that start
 * with what was typed, so "admin" then Enter picks Admin, not Super admin.
 */
export const prefixSelect = String.raw`
function startsWithInput(option, input) {
  return !input || option.label.toLowerCase().indexOf(input.trim().toLowerCase()) === 0;
}

function FieldShell(props) {
  var property = props.property;
  var label = AdminJS.useTranslation().translateProperty(property.label, property.resourceId);
  var error = props.record && props.record.errors && props.record.errors[property.path];
  return h(DS.FormGroup, { error: !!error, mb: 'xl' },
    h(DS.Label, { required: property.isRequired, htmlFor: property.path }, label),
    props.children,
    property.description ? h(DS.FormMessage, { style: { color: '#6b7280' } }, property.description) : null,
    error ? h(DS.FormMessage, null, error.message) : null);
}

function PrefixSelect(props) {
  var property = props.property;
  var options = property.availableValues || [];
  var current = props.record.params[property.path];
  var selected = options.find(function (o) { return String(o.value) === String(current); }) || null;
  return h(FieldShell, props,
    h(DS.Select, { inputId: property.path, options: options, value: selected, filterOption: startsWithInput,
      onChange: function (o) { props.onChange(property.path, o ? o.value : ''); } }));
}
`;
