/** The Forms page of an activity or a notice: how many answered, who is missing, each response, the CSV, Close. */
export const formResults = String.raw`
function FormResults(props) {
  var state = React.useState(null), data = state[0], setData = state[1];
  var noticeState = React.useState(null), notice = noticeState[0], setNotice = noticeState[1];
  function call(options) {
    return new AdminJS.ApiClient().recordAction(Object.assign({ resourceId: props.resource.id, recordId: props.record.id, actionName: 'forms' }, options));
  }
  function show(r) {
    if (r.data.notice) setNotice(r.data.notice);
    setData(r.data.results ? r.data.results : { error: (r.data.notice && r.data.notice.message) || 'The responses could not be loaded' });
  }
  React.useEffect(function () { call({}).then(show); }, []);
  function download() {
    call({ params: { format: 'csv' } }).then(function (r) {
      if (!r.data.csv) { setNotice(r.data.notice || { type: 'error', message: 'The CSV could not be made' }); return; }
      var link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob([r.data.csv.csv], { type: 'text/csv;charset=utf-8' }));
      link.download = r.data.csv.filename;
      document.body.appendChild(link);
      link.click();
      link.remove();
    });
  }
  function close() {
    if (!window.confirm('Close this form? Families will no longer be able to answer it or change their answers. This cannot be undone.')) return;
    var body = new FormData();
    body.append('close', 'true');
    call({ method: 'post', data: body }).then(show);
  }
  if (!data) return h(DS.Loader);
  if (data.error) return h(DS.MessageBox, { variant: 'danger', message: data.error, m: 'xl' });
  var form = data.form;
  var questions = form.questions;
  function answer(q, value) {
    if (value === undefined || value === null) return '';
    if (q.type === 'choice') {
      var labels = {};
      (q.options || []).forEach(function (o) { labels[o.id] = o.label; });
      return [].concat(value).map(function (id) { return labels[id] || id; }).join('; ');
    }
    if (q.type === 'consent') return value === 'agree' ? 'Agrees' : 'Declines';
    return String(value);
  }
  function when(iso) { return iso ? iso.slice(0, 16).replace('T', ' ') + ' UTC' : ''; }
  var perStudent = form.per_student;
  var missing = data.missing;
  var status = form.closed ? 'Closed' : form.due_at ? 'Open until ' + when(form.due_at) : 'Open';
  var cell = function (key, text) { return h(DS.TableCell, { key: key }, text); };
  return h(DS.Box, { variant: 'card', p: 'xl', m: 'xl', 'data-testid': 'form-results' },
    notice ? h(DS.MessageBox, { variant: notice.type === 'success' ? 'success' : 'danger', message: notice.message, mb: 'lg', onCloseClick: function () { setNotice(null); } }) : null,
    h(DS.Box, { flex: true, flexDirection: 'row', flexWrap: 'wrap' },
      h(Card, { label: 'Responses', value: data.responses.length, testId: 'form-responses-count' }),
      h(Card, { label: perStudent ? 'Children missing' : 'Families missing', value: missing.length, tone: missing.length ? 'error' : undefined, testId: 'form-missing-count' }),
      h(Card, { label: 'Form', value: status, testId: 'form-status' })),
    h(DS.Box, { mt: 'lg' },
      h(DS.Button, { variant: 'primary', onClick: download, mr: 'default', 'data-testid': 'form-csv' }, 'Download CSV'),
      form.closed ? null : h(DS.Button, { variant: 'danger', onClick: close, 'data-testid': 'form-close' }, 'Close the form')),
    h(DS.H4, { mt: 'xl' }, 'Responses'),
    data.responses.length === 0 ? h(DS.Text, null, 'No response yet.') : h(DS.Table, { 'data-testid': 'form-response-table' },
      h(DS.TableHead, null, h(DS.TableRow, null, [perStudent ? 'Student' : 'Family', 'Parent', 'Submitted'].concat(questions.map(function (q) { return q.label; })).concat(['Signature'])
        .map(function (c, i) { return cell(i, c); }))),
      h(DS.TableBody, null, data.responses.map(function (r) {
        return h(DS.TableRow, { key: r.id }, [
          r.student ? r.student.student_full_name + ' (' + r.student.grade + ')' : '', r.parent.father_name || ('Parent #' + r.parent.id), when(r.submitted_at),
        ].concat(questions.map(function (q) { return answer(q, Object.prototype.hasOwnProperty.call(r.answers, q.id) ? r.answers[q.id] : undefined); })).concat([r.signature || '']).map(function (text, i) { return cell(i, text); }));
      }))),
    h(DS.H4, { mt: 'xl' }, perStudent ? 'Children without a response' : 'Families without a response'),
    missing.length === 0 ? h(DS.Text, null, 'Everyone has answered.') : h(DS.Table, { 'data-testid': 'form-missing-table' },
      h(DS.TableHead, null, h(DS.TableRow, null, (perStudent ? ['Student', 'Grade'] : ['Parent', 'Children']).map(function (c, i) { return cell(i, c); }))),
      h(DS.TableBody, null, missing.map(function (m) {
        return perStudent
          ? h(DS.TableRow, { key: m.student_id }, cell(0, m.student_full_name), cell(1, m.grade))
          : h(DS.TableRow, { key: m.parent_id }, cell(0, m.father_name || ('Parent #' + m.parent_id)),
            cell(1, m.students.map(function (s) { return s.student_full_name + ' (' + s.grade + ')'; }).join(', ')));
      }))));
}
`;
