/** A parent's children on the parent's page: name (linked to the student), roll number, grade and status. */
export const childrenList = String.raw`
function ChildrenList(props) {
  var property = props.property;
  var label = AdminJS.useTranslation().translateProperty(property.label, property.resourceId);
  var children = AdminJS.flat.get(props.record.params, property.path) || [];
  var body = children.length ? h(DS.Table, { 'data-testid': 'children' },
    h(DS.TableHead, null, h(DS.TableRow, null, ['Name', 'Roll number', 'Grade', 'Status'].map(function (c) { return h(DS.TableCell, { key: c }, c); }))),
    h(DS.TableBody, null, children.map(function (c) {
      return h(DS.TableRow, { key: c.id },
        h(DS.TableCell, null, h('a', { href: '/admin/resources/students/records/' + c.id + '/show' }, c.student_full_name)),
        h(DS.TableCell, null, c.roll_no), h(DS.TableCell, null, c.grade),
        h(DS.TableCell, null, h(StatusBadge, { tone: TONE_OF[c.status] || 'grey', label: c.status_label })));
    }))) : h(DS.Text, null, 'No child is linked to this parent');
  return h(DS.ValueGroup, { label: label }, body);
}
`;
