/**
 * A record action whose answer may hold a one-time secret (Reset PIN): the page explains what the
 * action does, takes its optional fields (action.custom.fields), runs it, and shows the secret until
 * it is closed, then goes back to the record.
 */
export const secretAction = String.raw`
function recordUrl(resource, record) {
  return '/admin/resources/' + encodeURIComponent(resource.id) + '/records/' + encodeURIComponent(record.id) + '/show';
}

function SecretAction(props) {
  var custom = props.action.custom || {};
  var fields = custom.fields || [];
  var values = React.useState({}), busy = React.useState(false), answer = React.useState(null);
  var result = answer[0];
  function submit(e) {
    e.preventDefault();
    var data = new FormData();
    fields.forEach(function (f) { data.append(f.name, values[0][f.name] || ''); });
    busy[1](true);
    new AdminJS.ApiClient().recordAction({ resourceId: props.resource.id, recordId: props.record.id, actionName: props.action.name, method: 'post', data: data })
      .then(function (r) { busy[1](false); answer[1](r.data); }, function () { busy[1](false); answer[1]({ notice: { type: 'error', message: 'The console could not reach the server. Try again.' } }); });
  }
  var back = function () { window.location.assign(recordUrl(props.resource, props.record)); };
  if (result && result.secret) return h(DS.Box, { variant: 'card', p: 'xl', m: 'xl' }, h(SecretPanel, { secret: result.secret, onDone: back }));
  var errors = (result && result.record && result.record.errors) || {};
  var failed = result && result.notice && result.notice.type === 'error' ? result.notice.message : null;
  return h(DS.Box, { as: 'form', onSubmit: submit, variant: 'card', p: 'xl', m: 'xl', 'data-testid': 'secret-action' },
    custom.intro ? h(DS.Text, { mb: 'xl' }, custom.intro) : null,
    fields.map(function (f) {
      return h(DS.FormGroup, { key: f.name, error: !!errors[f.name] },
        h(DS.Label, { htmlFor: 'field-' + f.name }, f.label),
        h(DS.Input, { id: 'field-' + f.name, name: f.name, type: f.type || 'text', inputMode: f.inputMode, autoComplete: 'off', value: values[0][f.name] || '',
          onChange: function (e) { var next = Object.assign({}, values[0]); next[f.name] = e.target.value; values[1](next); } }),
        errors[f.name] ? h(DS.FormMessage, null, errors[f.name].message) : f.hint ? h(DS.Text, { variant: 'sm', color: 'grey60', mt: 'sm' }, f.hint) : null);
    }),
    failed ? h(DS.MessageBox, { variant: 'danger', mb: 'lg', message: failed }) : null,
    result && !failed && result.notice ? h(DS.MessageBox, { variant: 'success', mb: 'lg', message: result.notice.message }) : null,
    h(DS.Box, { flex: true, flexDirection: 'row' },
      h(DS.Button, { type: 'button', mr: 'default', onClick: back }, 'Cancel'),
      h(DS.Button, { variant: custom.danger ? 'danger' : 'contained', type: 'submit', disabled: busy[0], 'data-testid': 'secret-action-submit' }, custom.button || props.action.label)));
}
`;
