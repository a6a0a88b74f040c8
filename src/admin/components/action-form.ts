/**
 * A record action on a page of its own (Reset PIN, Reply, Assign): what it does, its fields
 * (action.custom.fields: text, a text area, or a pick among the school's records), and its button.
 * A one-time secret in the answer stays on the page until closed; otherwise the record's page opens
 * with the answer's notice; a refusal shows under its field.
 */
export const actionForm = String.raw`
function recordUrl(resource, record) {
  return '/admin/resources/' + encodeURIComponent(resource.id) + '/records/' + encodeURIComponent(record.id) + '/show';
}

function useRecordsOf(pick) {
  var state = React.useState(null);
  React.useEffect(function () {
    if (!pick) return;
    var params = Object.assign({ perPage: 500, sortBy: pick.label, direction: 'asc' }, pick.filters || {});
    new AdminJS.ApiClient().resourceAction({ resourceId: pick.resource, actionName: 'list', params: params })
      .then(function (r) { state[1]((r.data.records || []).map(function (d) { return { value: String(d.id), label: d.params[pick.label] }; })); }, function () { state[1]([]); });
  }, [pick && pick.resource]);
  return state[0];
}

function FormField(props) {
  var f = props.field, value = props.value, set = props.onChange;
  var records = useRecordsOf(f.type === 'pick' ? f.pick : null);
  if (f.type === 'textarea') return h(DS.TextArea, { id: 'field-' + f.name, name: f.name, rows: 6, value: value, onChange: function (e) { set(e.target.value); }, style: { width: '100%' } });
  if (f.type === 'pick') {
    var none = f.pick.none ? [{ value: '', label: f.pick.none }] : [];
    var options = none.concat(records || []);
    var selected = options.find(function (o) { return o.value === value; }) || null;
    return h(DS.Select, { inputId: 'field-' + f.name, isLoading: records === null, options: options, value: selected, filterOption: startsWithInput,
      onChange: function (o) { set(o ? o.value : ''); } });
  }
  return h(DS.Input, { id: 'field-' + f.name, name: f.name, inputMode: f.inputMode, autoComplete: 'off', value: value, onChange: function (e) { set(e.target.value); } });
}

function ActionForm(props) {
  var custom = props.action.custom || {};
  var fields = custom.fields || [];
  var navigate = ReactRouterDOM.useNavigate();
  var notify = AdminJS.useNotice();
  var start = {};
  fields.forEach(function (f) { start[f.name] = f.initial ? String(props.record.params[f.initial] == null ? '' : props.record.params[f.initial]) : ''; });
  var values = React.useState(start), busy = React.useState(false), answer = React.useState(null);
  var result = answer[0];
  var back = function () { navigate(recordUrl(props.resource, props.record)); };
  function submit(e) {
    e.preventDefault();
    var data = new FormData();
    fields.forEach(function (f) { data.append(f.name, values[0][f.name] || ''); });
    busy[1](true);
    new AdminJS.ApiClient().recordAction({ resourceId: props.resource.id, recordId: props.record.id, actionName: props.action.name, method: 'post', data: data })
      .then(function (r) {
        busy[1](false);
        var failed = r.data.notice && r.data.notice.type === 'error';
        if (!failed && !r.data.secret) {
          if (r.data.notice) notify(r.data.notice);
          return back();
        }
        answer[1](r.data);
      }, function () { busy[1](false); answer[1]({ notice: { type: 'error', message: 'The console could not reach the server. Try again.' } }); });
  }
  if (result && result.secret) return h(DS.Box, { variant: 'card', p: 'xl', m: 'xl' }, h(SecretPanel, { secret: result.secret, onDone: back }));
  var errors = (result && result.record && result.record.errors) || {};
  var failed = result && result.notice && result.notice.type === 'error' ? result.notice.message : null;
  return h(DS.Box, { as: 'form', onSubmit: submit, variant: 'card', p: 'xl', m: 'xl', 'data-testid': 'action-form' },
    custom.intro ? h(DS.Text, { mb: 'xl' }, custom.intro) : null,
    fields.map(function (f) {
      return h(DS.FormGroup, { key: f.name, error: !!errors[f.name], mb: 'xl' },
        h(DS.Label, { htmlFor: 'field-' + f.name, required: !!f.required }, f.label),
        h(FormField, { field: f, value: values[0][f.name] || '', onChange: function (v) { var next = Object.assign({}, values[0]); next[f.name] = v; values[1](next); } }),
        errors[f.name] ? h(DS.FormMessage, null, errors[f.name].message) : f.hint ? h(DS.Text, { variant: 'sm', color: 'grey60', mt: 'sm' }, f.hint) : null);
    }),
    failed ? h(DS.MessageBox, { variant: 'danger', mb: 'lg', message: failed }) : null,
    h(DS.Box, { flex: true, flexDirection: 'row' },
      h(DS.Button, { type: 'button', mr: 'default', onClick: back }, 'Cancel'),
      h(DS.Button, { variant: custom.danger ? 'danger' : 'contained', type: 'submit', disabled: busy[0], 'data-testid': 'action-form-submit' }, custom.button || props.action.label)));
}
`;
