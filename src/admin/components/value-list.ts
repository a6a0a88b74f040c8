/**
 * A field that holds several values (a webhook's events), in a list and on a page: their labels
 * joined, never AdminJS's "Length: 2".
 */
export const valueList = String.raw`
function ValueList(props) {
  var property = props.property;
  var values = AdminJS.flat.get(props.record ? props.record.params : {}, property.path);
  if (!Array.isArray(values)) values = values == null || values === '' ? [] : [values];
  var text = values.map(function (v) { return labelFor(property, v); }).join(', ');
  if (props.where !== 'show') return h('span', null, text);
  var label = AdminJS.useTranslation().translateProperty(property.label, property.resourceId);
  return h(DS.ValueGroup, { label: label }, text || '-');
}
`;
