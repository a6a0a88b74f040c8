/**
 * A group's members on its page (name linked, roll number, grade, each with Remove), and its Add
 * members page: students found by name or roll number (the Students list's quick search), several
 * chosen, then added in one request: all of them or none.
 */
export const groupMembers = String.raw`
function GroupMemberList(props) {
  var property = props.property;
  var label = AdminJS.useTranslation().translateProperty(property.label, property.resourceId);
  var members = AdminJS.flat.get(props.record.params, property.path) || [];
  var removed = React.useState([]), gone = removed[0];
  var notify = AdminJS.useNotice();
  var canChange = (props.record.recordActions || []).some(function (a) { return a.name === 'addMembers'; });
  function remove(m) {
    var data = new FormData();
    data.append('student_id', String(m.id));
    new AdminJS.ApiClient().recordAction({ resourceId: props.resource.id, recordId: props.record.id, actionName: 'removeMember', method: 'post', data: data })
      .then(function (r) {
        if (r.data.notice) notify(r.data.notice);
        if (!r.data.notice || r.data.notice.type !== 'error') removed[1](gone.concat([m.id]));
      });
  }
  var shown = members.filter(function (m) { return gone.indexOf(m.id) < 0; });
  var body = shown.length ? h(DS.Table, { 'data-testid': 'group-members' },
    h(DS.TableHead, null, h(DS.TableRow, null, ['Name', 'Roll number', 'Grade', ''].map(function (c, i) { return h(DS.TableCell, { key: i }, c); }))),
    h(DS.TableBody, null, shown.map(function (m) {
      return h(DS.TableRow, { key: m.id },
        h(DS.TableCell, null, h('a', { href: '/admin/resources/students/records/' + m.id + '/show' }, m.student_full_name)),
        h(DS.TableCell, null, m.roll_no), h(DS.TableCell, null, m.grade),
        h(DS.TableCell, null, canChange ? h(DS.Button, { size: 'sm', variant: 'text', type: 'button', onClick: function () { remove(m); } }, 'Remove') : null));
    }))) : h(DS.Text, null, 'No members yet');
  return h(DS.ValueGroup, { label: label + ' (' + shown.length + ')' }, body);
}

function AddMembers(props) {
  var navigate = ReactRouterDOM.useNavigate();
  var notify = AdminJS.useNotice();
  var query = React.useState(''), found = React.useState([]), chosen = React.useState([]), failure = React.useState(null), busy = React.useState(false);
  var picked = chosen[0];
  function search(e) {
    e.preventDefault();
    new AdminJS.ApiClient().resourceAction({ resourceId: 'students', actionName: 'list', params: { 'filters.q': query[0], perPage: 20, sortBy: 'student_full_name', direction: 'asc' } })
      .then(function (r) { found[1]((r.data.records || []).map(function (s) { return { id: s.id, name: s.params.student_full_name, roll_no: s.params.roll_no, grade: s.params.grade }; })); });
  }
  function choose(s) { if (!picked.some(function (p) { return p.id === s.id; })) chosen[1](picked.concat([s])); }
  function add() {
    var data = new FormData();
    data.append('student_ids', picked.map(function (s) { return s.id; }).join(','));
    busy[1](true);
    new AdminJS.ApiClient().recordAction({ resourceId: props.resource.id, recordId: props.record.id, actionName: props.action.name, method: 'post', data: data })
      .then(function (r) {
        busy[1](false);
        if (r.data.notice && r.data.notice.type === 'error') return failure[1](r.data.notice.message);
        if (r.data.notice) notify(r.data.notice);
        navigate(recordUrl(props.resource, props.record));
      });
  }
  return h(DS.Box, { variant: 'card', p: 'xl', m: 'xl', 'data-testid': 'add-members' },
    h(DS.Text, { mb: 'lg' }, 'Find students by name or roll number, choose as many as you need, then add them together.'),
    h(DS.Box, { as: 'form', onSubmit: search, flex: true, flexDirection: 'row', mb: 'lg' },
      h(DS.Input, { type: 'search', 'aria-label': 'Name or roll number', placeholder: 'Name or roll number', value: query[0], 'data-testid': 'member-search',
        onChange: function (e) { query[1](e.target.value); }, style: { flexGrow: 1, maxWidth: 420 } }),
      h(DS.Button, { type: 'submit', ml: 'default' }, 'Find')),
    found[0].length ? h(DS.Table, { mb: 'lg', 'data-testid': 'member-results' },
      h(DS.TableBody, null, found[0].map(function (s) {
        var isChosen = picked.some(function (p) { return p.id === s.id; });
        return h(DS.TableRow, { key: s.id }, h(DS.TableCell, null, s.name), h(DS.TableCell, null, s.roll_no), h(DS.TableCell, null, s.grade),
          h(DS.TableCell, null, h(DS.Button, { size: 'sm', type: 'button', disabled: isChosen, onClick: function () { choose(s); } }, isChosen ? 'Chosen' : 'Choose')));
      }))) : null,
    h(DS.H5, { mb: 'default' }, 'Chosen (' + picked.length + ')'),
    h(DS.Box, { flex: true, flexDirection: 'row', flexWrap: 'wrap', mb: 'lg', 'data-testid': 'members-chosen' }, picked.map(function (s) {
      return h(DS.Badge, { key: s.id, mr: 'sm', mb: 'sm', outline: true, style: { cursor: 'pointer' }, title: 'Take out',
        onClick: function () { chosen[1](picked.filter(function (p) { return p.id !== s.id; })); } }, s.name + ' (' + s.roll_no + ') x');
    })),
    failure[0] ? h(DS.MessageBox, { variant: 'danger', mb: 'lg', message: failure[0] }) : null,
    h(DS.Button, { type: 'button', mr: 'default', onClick: function () { navigate(recordUrl(props.resource, props.record)); } }, 'Cancel'),
    h(DS.Button, { variant: 'contained', type: 'button', disabled: !picked.length || busy[0], onClick: add, 'data-testid': 'add-members-submit' },
      'Add ' + picked.length + ' student' + (picked.length === 1 ? '' : 's')));
}
`;
