/** An audit event's changes on its page: one row per field, its label, before and after, as stored. */
export const auditChanges = String.raw`
function AuditChanges(props) {
  var property = props.property;
  var label = AdminJS.useTranslation().translateProperty(property.label, property.resourceId);
  var rows = AdminJS.flat.get(props.record.params, property.path) || [];
  var body = rows.length ? h(DS.Table, { 'data-testid': 'audit-changes' },
    h(DS.TableHead, null, h(DS.TableRow, null, ['Field', 'Before', 'After'].map(function (c) { return h(DS.TableCell, { key: c }, c); }))),
    h(DS.TableBody, null, rows.map(function (r, i) {
      return h(DS.TableRow, { key: i }, h(DS.TableCell, null, r.field), h(DS.TableCell, null, r.before === '' ? '-' : r.before), h(DS.TableCell, null, r.after === '' ? '-' : r.after));
    }))) : h(DS.Text, null, 'No field changed');
  return h(DS.ValueGroup, { label: label }, body);
}
`;
