/**
 * A New form whose answer may hold a one-time secret (a webhook's signing secret, a new guardian's
 * PIN set-up link): the resource's fields, or action.custom.properties, on one form; errors under
 * their fields; the secret shown until closed, then the new record's page.
 */
export const newWithSecret = String.raw`
function NewWithSecret(props) {
  var resource = props.resource;
  var state = AdminJS.useRecord(props.record, resource.id);
  var shown = React.useState(null), secret = shown[0];
  var names = props.action.custom && props.action.custom.properties;
  var properties = names ? names.map(function (n) { return resource.properties[n]; }).filter(Boolean) : resource.editProperties;
  function submit(e) {
    e.preventDefault();
    state.submit().then(function (r) {
      var created = r.data.record && r.data.record.id && !Object.keys(r.data.record.errors || {}).length;
      if (!created) return;
      if (r.data.secret) shown[1]({ secret: r.data.secret, next: r.data.redirectUrl });
      else if (r.data.redirectUrl) window.location.assign(r.data.redirectUrl);
    });
  }
  if (secret) {
    return h(DS.Box, { variant: 'card', p: 'xl', m: 'xl' },
      h(SecretPanel, { secret: secret.secret, onDone: function () { window.location.assign(secret.next); }, doneLabel: 'Done: open the new record' }));
  }
  return h(DS.Box, { as: 'form', onSubmit: submit, flex: true, flexDirection: 'column', variant: 'card', p: 'xl', m: 'xl', 'data-testid': 'new-form' },
    properties.map(function (property) {
      return h(AdminJS.BasePropertyComponent, { key: property.propertyPath, where: 'edit', onChange: state.handleChange, property: property, resource: resource, record: state.record });
    }),
    h(DS.Box, { mt: 'xl' }, h(DS.Button, { variant: 'contained', type: 'submit', disabled: state.loading, 'data-testid': 'button-save' }, 'Save')));
}
`;
