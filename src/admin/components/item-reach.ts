/** The Reach page of an activity or a notice: who it reaches, who read it, the unread families. */
export const itemReach = String.raw`
function ItemReach(props) {
  var state = React.useState(null), data = state[0], setData = state[1];
  var paging = React.useState(1), page = paging[0], setPage = paging[1];
  React.useEffect(function () {
    new AdminJS.ApiClient().recordAction({ resourceId: props.resource.id, recordId: props.record.id, actionName: 'reach', params: { page: page } })
      .then(function (r) { setData(r.data.reach || { error: (r.data.notice && r.data.notice.message) || 'The reach could not be loaded' }); });
  }, [page]);
  if (!data) return h(DS.Loader);
  if (data.error) return h(DS.MessageBox, { variant: 'danger', message: data.error, m: 'xl' });
  var p = data.pagination;
  return h(DS.Box, { variant: 'card', p: 'xl', m: 'xl', 'data-testid': 'item-reach' },
    h(DS.Box, { flex: true, flexDirection: 'row', flexWrap: 'wrap' },
      h(Card, { label: 'Families', value: data.families }), h(Card, { label: 'Read', value: data.read }),
      h(Card, { label: 'Not read yet', value: data.unread, tone: data.unread ? 'error' : undefined }), h(Card, { label: 'Pushed', value: data.pushed })),
    h(DS.H4, { mt: 'xl' }, 'Families that have not read it'),
    h(DS.Table, null,
      h(DS.TableHead, null, h(DS.TableRow, null, ['Parent', 'Phone', 'Children'].map(function (c) { return h(DS.TableCell, { key: c }, c); }))),
      h(DS.TableBody, null, data.unread_families.map(function (f) {
        return h(DS.TableRow, { key: f.parent_id }, h(DS.TableCell, null, f.father_name || ('Parent #' + f.parent_id)), h(DS.TableCell, null, f.phone_no),
          h(DS.TableCell, null, f.children.map(function (c) { return c.student_full_name + ' (' + c.grade + ')'; }).join(', ')));
      }))),
    p.pages > 1 ? h(DS.Box, { mt: 'lg' },
      h(DS.Button, { disabled: page <= 1, onClick: function () { setPage(page - 1); }, mr: 'default' }, 'Previous'),
      h(DS.Text, { as: 'span', mr: 'default' }, 'Page ' + p.page + ' of ' + p.pages),
      h(DS.Button, { disabled: page >= p.pages, onClick: function () { setPage(page + 1); } }, 'Next')) : null);
}
`;
