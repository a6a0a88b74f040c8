/** Export data on a Student page: the same document as the API's export, offered as a JSON file. */
export const dataExport = String.raw`
function DataExport(props) {
  var state = React.useState(null), data = state[0], setData = state[1];
  React.useEffect(function () {
    new AdminJS.ApiClient().recordAction({ resourceId: props.resource.id, recordId: props.record.id, actionName: 'exportData' })
      .then(function (r) { setData(r.data.export ? { doc: r.data.export } : { error: (r.data.notice && r.data.notice.message) || 'The export failed' }); });
  }, []);
  if (!data) return h(DS.Loader);
  if (data.error) return h(DS.MessageBox, { variant: 'danger', message: data.error, m: 'xl' });
  var doc = data.doc;
  var href = URL.createObjectURL(new Blob([JSON.stringify(doc, null, 2)], { type: 'application/json' }));
  var counts = Object.keys(doc).filter(function (k) { return Array.isArray(doc[k]); }).map(function (k) { return k.replace(/_/g, ' ') + ': ' + doc[k].length; });
  return h(DS.Box, { variant: 'card', p: 'xl', m: 'xl', 'data-testid': 'data-export' },
    h(DS.Text, { mb: 'lg' }, 'Every record held about this student and their parent, without secrets. ' + counts.join(', ')),
    h(DS.Link, { href: href, download: 'student-' + props.record.id + '-export.json' }, 'Download the export (JSON)'));
}
`;
