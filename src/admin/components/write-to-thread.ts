/** A write-to request's conversation on its page: the parent's request, then each reply, oldest first, with who wrote it and when. */
export const writeToThread = String.raw`
function WriteToThread(props) {
  var property = props.property;
  var label = AdminJS.useTranslation().translateProperty(property.label, property.resourceId);
  var entries = AdminJS.flat.get(props.record.params, property.path) || [];
  return h(DS.ValueGroup, { label: label }, h(DS.Box, { 'data-testid': 'write-to-thread' }, entries.map(function (e, i) {
    var fromSchool = i > 0 && e.role !== 'Parent';
    return h(DS.Box, { key: i, p: 'lg', mb: 'default', 'data-testid': 'thread-entry',
      style: { border: '1px solid #e5e7eb', borderRadius: 6, background: fromSchool ? '#f3f6ff' : '#fff', marginLeft: fromSchool ? 32 : 0 } },
      h(DS.Text, { fontWeight: 'bold', mb: 'sm' }, e.author + ' (' + e.role.toLowerCase() + '), ' + new Date(e.at).toLocaleString()),
      h(DS.Text, { style: { whiteSpace: 'pre-wrap' } }, e.message));
  })));
}
`;
