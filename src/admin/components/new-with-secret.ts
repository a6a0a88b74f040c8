/**
 * A New form whose answer may hold a one-time secret (a webhook's signing secret, a new guardian's
 * PIN set-up link): the resource's fields, or action.custom.properties, on one form (custom.defaults
 * and custom.choices give a new record's starting values and the ones it may take); errors under
 * their fields; the secret shown until closed, then the new record's page.
 */
export const newWithSecret = String.raw`
function NewWithSecret(props) {
  var resource = props.resource;
  var custom = props.action.custom || {};
  var start = Object.assign({ params: {}, errors: {}, populated: {} }, props.record);
  start.params = Object.assign({}, custom.defaults || {}, start.params);
  var state = AdminJS.useRecord(start, resource.id);
  var shown = React.useState(null), secret = shown[0];
  var navigate = ReactRouterDOM.useNavigate();
  var properties = (custom.properties ? custom.properties.map(function (n) { return resource.properties[n]; }).filter(Boolean) : resource.editProperties)
    .map(function (property) {
      // A value the new record cannot start with is not offered (a new student is active or registered).
      var only = custom.choices && custom.choices[property.path];
      return only ? Object.assign({}, property, { availableValues: property.availableValues.filter(function (v) { return only.indexOf(v.value) >= 0; }) }) : property;
    });
  function submit(e) {
    e.preventDefault();
    state.submit().then(function (r) {
      var created = r.data.record && r.data.record.id && !Object.keys(r.data.record.errors || {}).length;
      if (!created) return;
      if (r.data.secret) shown[1]({ secret: r.data.secret, next: r.data.redirectUrl });
      else if (r.data.redirectUrl) navigate(r.data.redirectUrl);
    });
  }
  if (secret) {
    return h(DS.Box, { variant: 'card', p: 'xl', m: 'xl' },
      h(SecretPanel, { secret: secret.secret, onDone: function () { navigate(secret.next); }, doneLabel: 'Done: open the new record' }));
  }
  return h(DS.Box, { as: 'form', onSubmit: submit, flex: true, flexDirection: 'column', variant: 'card', p: 'xl', m: 'xl', 'data-testid': 'new-form' },
    properties.map(function (property) {
      return h(AdminJS.BasePropertyComponent, { key: property.propertyPath, where: 'edit', onChange: state.handleChange, property: property, resource: resource, record: state.record });
    }),
    h(DS.Box, { mt: 'xl' }, h(DS.Button, { variant: 'contained', type: 'submit', disabled: state.loading, 'data-testid': 'button-save' }, 'Save')));
}
`;
