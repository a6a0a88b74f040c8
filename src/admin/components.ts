/**
 * The console's own browser components, served as AdminJS's components.bundle.js. AdminJS would
 * bundle components with rollup and babel at start-up (production) or on first request
 * (development), which costs seconds and memory and writes to disk; these are a few plain functions
 * over the globals AdminJS's pages already load (React, AdminJS, AdminJSDesignSystem), written in
 * the JavaScript every current browser runs, so they are sent as they are.
 */
export const componentsBundle = String.raw`(function () {
  var h = React.createElement;
  var DS = AdminJSDesignSystem;

  function Card(props) {
    return h(DS.Box, { variant: 'card', flex: true, flexDirection: 'column', p: 'lg', m: 'default', width: 220, 'data-testid': props.testId },
      h(DS.Text, { fontSize: 'sm', color: 'grey60' }, props.label),
      h(DS.Text, { fontSize: 32, fontWeight: 'bold', mt: 'sm', color: props.tone || 'grey100' }, String(props.value)));
  }

  function SchoolDashboard() {
    var state = React.useState(null), data = state[0], setData = state[1];
    var failure = React.useState(null), error = failure[0], setError = failure[1];
    React.useEffect(function () {
      new AdminJS.ApiClient().getDashboard().then(function (r) { setData(r.data); }, function (e) { setError(String(e)); });
    }, []);
    if (error) return h(DS.MessageBox, { variant: 'danger', message: 'The counts could not be loaded', m: 'xl' });
    if (!data) return h(DS.Loader);
    var cards = [];
    if (data.students) {
      Object.keys(data.students).forEach(function (status) {
        cards.push(h(Card, { key: status, label: 'Students ' + status, value: data.students[status], testId: 'students-' + status }));
      });
    }
    if (data.active_staff !== null) cards.push(h(Card, { key: 'staff', label: 'Active staff', value: data.active_staff, testId: 'active-staff' }));
    if (data.open_write_to !== null) cards.push(h(Card, { key: 'write-to', label: 'Open write-to requests', value: data.open_write_to, testId: 'open-write-to' }));
    cards.push(h(Card, {
      key: 'failed', label: 'Notifications failed (24 h)', value: data.failed_notifications_24h, testId: 'failed-notifications',
      tone: data.failed_notifications_24h > 0 ? 'error' : undefined,
    }));
    return h(DS.Box, { variant: 'grey', p: 'xl' },
      h(DS.H2, { mb: 'lg' }, 'School overview' + (data.scope ? ': ' + data.scope : '')),
      h(DS.Box, { flex: true, flexDirection: 'row', flexWrap: 'wrap' }, cards));
  }

  // The school column, for the operator only: a school admin's records are all of its own school,
  // and a record never moves to another school, so the operator names it only on a new record.
  function PlatformOnly(props) {
    var admin = AdminJS.useCurrentAdmin()[0];
    if (!admin || admin.role !== 'platform_admin') return null;
    if (props.where === 'edit' && props.record && props.record.id) return null;
    return h(AdminJS.CleanPropertyComponent, props);
  }

  // The Import action of the Students and Staff lists: choose a file, check it (a dry run), read the
  // report, then apply it. The server runs the same import as the API and the command line.
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
        if (r.data.report) s.report[1](r.data.report);
        else s.error[1]((r.data.notice && r.data.notice.message) || 'The import failed');
      }, function (e) { s.busy[1](false); s.error[1](String(e)); });
    }
    var checked = report && report.dry_run && report.kind === kind;
    var canApply = file && checked && (report.errors.length === 0 || partial);
    var template = kind === 'oneroster' ? null : h(DS.Link, { href: '/admin/import-templates/' + kind + '.csv', ml: 'default' }, 'Download the ' + kind + ' template');
    var summary = report && h(DS.Box, { mt: 'xl', 'data-testid': 'import-report' },
      h(DS.H4, null, report.dry_run ? 'Dry run: nothing written yet' : report.applied ? 'Imported' : 'Nothing was imported'),
      h(DS.Text, null, report.rows + ' rows: ' + report.created + ' to create, ' + report.updated + ' to update, ' + report.unchanged + ' unchanged, ' +
        report.guardians_created + ' new guardians, ' + report.errors.length + ' errors'),
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

  // The Reach page of an activity or a notice: who it reaches, who read it, the unread families.
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

  // Export data on a Student page: the same document as the API's export, offered as a JSON file.
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

  // Erase on an archived Student page: nothing happens until the roll number is typed.
  function EraseStudent(props) {
    var typed = React.useState(''), roll = typed[0], setRoll = typed[1];
    var outcome = React.useState(null), result = outcome[0], setResult = outcome[1];
    var expected = props.record.params.roll_no;
    function erase() {
      var data = new FormData();
      data.append('confirm', roll);
      new AdminJS.ApiClient().recordAction({ resourceId: props.resource.id, recordId: props.record.id, actionName: 'erase', method: 'post', data: data })
        .then(function (r) { setResult(r.data.notice || { type: 'error', message: 'The erasure failed' }); });
    }
    return h(DS.Box, { variant: 'card', p: 'xl', m: 'xl', 'data-testid': 'erase-student' },
      h(DS.MessageBox, { variant: 'danger', mb: 'lg', message: 'Erasing replaces this student\'s personal data, and their parent\'s when no other child links them, everywhere it is held. It cannot be undone.' }),
      h(DS.Label, null, 'Type the roll number (' + expected + ') to confirm'),
      h(DS.Input, { value: roll, onChange: function (e) { setRoll(e.target.value); }, mb: 'lg' }),
      h(DS.Button, { variant: 'danger', disabled: roll !== expected, onClick: erase }, 'Erase'),
      result ? h(DS.MessageBox, { variant: result.type === 'success' ? 'success' : 'danger', message: result.message, mt: 'lg' }) : null);
  }

  AdminJS.UserComponents = Object.assign(AdminJS.UserComponents || {}, {
    SchoolDashboard: SchoolDashboard, PlatformOnly: PlatformOnly, ImportRoster: ImportRoster, ItemReach: ItemReach, DataExport: DataExport, EraseStudent: EraseStudent,
  });
})();
`;
