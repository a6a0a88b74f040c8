/**
 * The Import action of the Students and Staff lists: choose a file, check it (a dry run), read the
 * report, then apply it. The server runs the same import as the API and the command line.
 */
export const importRoster = String.raw`
function ImportRoster(props) {
  var resource = props.resource;
  var kinds = resource.id === 'staff' ? ['staff'] : ['students', 'oneroster'];
  var s = {
    kind: React.useState(kinds[0]), file: React.useState(null), partial: React.useState(false),
    report: React.useState(null), busy: React.useState(false), error: React.useState(null), school: React.useState(''),
  };
  var admin = AdminJS.useCurrentAdmin()[0];
  var kind = s.kind[0], file = s.file[0], partial = s.partial[0], report = s.report[0], busy = s.busy[0], error = s.error[0];
  function send(dryRun) {
    var data = new FormData();
    data.append('file', file);
    data.append('kind', kind);
    data.append('dry_run', dryRun ? 'true' : 'false');
    data.append('partial', partial ? 'true' : 'false');
    if (s.school[0]) data.append('school_id', s.school[0]);
    s.busy[1](true); s.error[1](null);
    new AdminJS.ApiClient().resourceAction({ resourceId: resource.id, actionName: 'import', method: 'post', data: data }).then(function (r) {
      s.busy[1](false);
      if (r.data.report) s.report[1](Object.assign({ words: r.data.words }, r.data.report));
      else s.error[1]((r.data.notice && r.data.notice.message) || 'The import failed');
    }, function (e) {
      // A refusal (a file over the limit, a body that cannot be read) says why in its body, as the API does.
      var body = e && e.response && e.response.data;
      s.busy[1](false); s.error[1]((body && (body.message || (body.notice && body.notice.message))) || String(e));
    });
  }
  var checked = report && report.dry_run && report.kind === kind;
  var canApply = file && checked && (report.errors.length === 0 || partial);
  var template = kind === 'oneroster' ? null : h(DS.Link, { href: '/admin/import-templates/' + kind + '.csv', ml: 'default' }, 'Download the ' + kind + ' template');
  var summary = report && h(DS.Box, { mt: 'xl', 'data-testid': 'import-report' },
    h(DS.H4, null, report.words.heading),
    h(DS.Text, { 'data-testid': 'import-counts' }, report.words.counts),
    report.words.groups ? h(DS.Text, { mt: 'sm', 'data-testid': 'import-groups' }, report.words.groups) : null,
    report.errors.length ? h(DS.Table, { mt: 'lg' },
      h(DS.TableHead, null, h(DS.TableRow, null, ['File', 'Line', 'Field', 'Problem'].map(function (c) { return h(DS.TableCell, { key: c }, c); }))),
      h(DS.TableBody, null, report.errors.map(function (e, i) {
        return h(DS.TableRow, { key: i }, [e.file || '', String(e.line), e.field, e.message].map(function (v, j) { return h(DS.TableCell, { key: j }, v); }));
      }))) : null);
  return h(DS.Box, { variant: 'card', p: 'xl', m: 'xl' },
    h(DS.H3, null, 'Import ' + (resource.id === 'staff' ? 'staff' : 'students')),
    h(DS.Text, { mb: 'lg' }, 'Rows are matched, never duplicated: students by roll number, staff and guardians by phone. Check the file first; nothing is written until you apply it.'),
    kinds.length > 1 ? h(DS.Box, { mb: 'lg' }, h(DS.Label, null, 'Format'),
      h('select', { value: kind, 'data-testid': 'import-kind', onChange: function (e) { s.kind[1](e.target.value); s.report[1](null); } },
        h('option', { value: 'students' }, "The school's students CSV"), h('option', { value: 'oneroster' }, 'OneRoster set (.zip)'))) : null,
    admin && admin.role === 'platform_admin' ? h(DS.Box, { mb: 'lg' }, h(DS.Label, null, 'School id'),
      h(DS.Input, { value: s.school[0], onChange: function (e) { s.school[1](e.target.value); } })) : null,
    h(DS.Box, { mb: 'lg' }, h('input', { type: 'file', 'data-testid': 'import-file', accept: kind === 'oneroster' ? '.zip' : '.csv,text/csv',
      onChange: function (e) { s.file[1](e.target.files[0] || null); s.report[1](null); } }), template),
    h(DS.Box, { mb: 'lg' }, h('label', null, h('input', { type: 'checkbox', checked: partial, onChange: function (e) { s.partial[1](e.target.checked); } }),
      ' Apply the valid rows even if some are invalid')),
    h(DS.Button, { disabled: !file || busy, onClick: function () { send(true); }, mr: 'default', 'data-testid': 'import-check' }, 'Check the file'),
    h(DS.Button, { variant: 'contained', disabled: !canApply || busy, onClick: function () { send(false); }, 'data-testid': 'import-apply' }, 'Import'),
    busy ? h(DS.Loader) : null,
    error ? h(DS.MessageBox, { variant: 'danger', message: error, mt: 'lg' }) : null,
    summary);
}
`;
