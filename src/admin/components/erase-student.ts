/** Erase on an archived Student page: nothing happens until the roll number is typed. */
export const eraseStudent = String.raw`
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
`;
