/**
 * A value shown once (a PIN the console made up, a set-up link, a webhook's signing secret): it
 * stays on the page, with a Copy button and the warning that it is not shown again, until the admin
 * closes it. It never goes into a notice, which fades.
 */
export const secretPanel = String.raw`
function copyText(text, field) {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
  field.select();
  document.execCommand('copy');
  return Promise.resolve();
}

function SecretPanel(props) {
  var copied = React.useState(false);
  var field = React.useRef(null);
  var secret = props.secret;
  return h(DS.Box, { variant: 'card', p: 'xl', mt: 'lg', 'data-testid': 'one-time-secret', role: 'alert', style: { border: '2px solid #b45309' } },
    h(DS.H4, { mb: 'default' }, secret.label),
    h(DS.Box, { flex: true, flexDirection: 'row', alignItems: 'center', mb: 'lg' },
      h('input', { ref: field, readOnly: true, value: secret.value, 'data-testid': 'one-time-secret-value', onFocus: function (e) { e.target.select(); },
        style: { fontFamily: 'monospace', fontSize: 18, padding: '8px 12px', flexGrow: 1, minWidth: 0, border: '1px solid #ccc', borderRadius: 4 } }),
      h(DS.Button, { ml: 'default', type: 'button', 'data-testid': 'one-time-secret-copy', onClick: function () {
        copyText(secret.value, field.current).then(function () { copied[1](true); }, function () { field.current.select(); });
      } }, h(DS.Icon, { icon: 'Copy' }), copied[0] ? 'Copied' : 'Copy')),
    h(DS.MessageBox, { variant: 'danger', mb: 'lg', message: 'It will not be shown again. Copy it now and give it only to the person it is for.' }),
    h(DS.Button, { variant: 'contained', type: 'button', 'data-testid': 'one-time-secret-done', onClick: props.onDone }, props.doneLabel || 'Done: I have copied it'));
}
`;
