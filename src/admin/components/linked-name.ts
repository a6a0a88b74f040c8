/**
 * What a record points at, by name and linked to it (a session's account, a comment's item): the
 * server puts {label, href} under the property; a name with no page of its own is plain text.
 */
export const linkedName = String.raw`
function LinkedName(props) {
  var property = props.property;
  var value = AdminJS.flat.get(props.record ? props.record.params : {}, property.path) || {};
  var text = value.label || '';
  var content = value.href ? h('a', { href: value.href, onClick: function (e) { e.stopPropagation(); } }, text) : h('span', null, text);
  if (props.where !== 'show') return content;
  var label = AdminJS.useTranslation().translateProperty(property.label, property.resourceId);
  return h(DS.ValueGroup, { label: label }, text ? content : '-');
}
`;
