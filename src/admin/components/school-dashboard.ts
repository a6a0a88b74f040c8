/** The console's first page: the school's counts. */
export const schoolDashboard = String.raw`
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
`;
