/**
 * The console's first page: the school's counts, each linking to its list filtered to what it
 * counts (the students of a status, the active staff, the requests still waiting, the failed
 * notifications of the last day).
 */
export const schoolDashboard = String.raw`
var STUDENT_STATUS_WORDS = { registered: 'Registered', active: 'Active', inactive: 'Inactive', archived: 'Archived' };

function listUrl(resource, filters) {
  var query = Object.keys(filters).map(function (k) { return 'filters.' + k + '=' + encodeURIComponent(filters[k]); }).join('&');
  return '/admin/resources/' + resource + (query ? '?' + query : '');
}

function SchoolDashboard() {
  var state = React.useState(null), data = state[0], setData = state[1];
  var failure = React.useState(null), error = failure[0], setError = failure[1];
  React.useEffect(function () {
    new AdminJS.ApiClient().getDashboard().then(function (r) { setData(r.data); }, function (e) { setError(String(e)); });
  }, []);
  if (error) return h(DS.MessageBox, { variant: 'danger', message: 'The counts could not be loaded. Reload the page to try again.', m: 'xl' });
  if (!data) return h(DS.Loader);
  var cards = [];
  if (data.students) {
    Object.keys(data.students).forEach(function (status) {
      cards.push(h(Card, { key: status, label: (STUDENT_STATUS_WORDS[status] || status) + ' students', value: data.students[status], testId: 'students-' + status,
        href: listUrl('students', { status: status }) }));
    });
  }
  if (data.active_staff !== null) cards.push(h(Card, { key: 'staff', label: 'Active staff', value: data.active_staff, testId: 'active-staff', href: listUrl('staff', { status: '1' }) }));
  if (data.open_write_to !== null) {
    cards.push(h(Card, { key: 'write-to', label: 'Write-to requests waiting', value: data.open_write_to, testId: 'open-write-to',
      href: listUrl('write_to_requests', { status: 'open,in_progress' }) }));
  }
  var since = new Date(Date.now() - 86400000).toISOString();
  cards.push(h(Card, {
    key: 'failed', label: 'Notifications failed (24 h)', value: data.failed_notifications_24h, testId: 'failed-notifications',
    tone: data.failed_notifications_24h > 0 ? 'error' : undefined, href: listUrl('notifications', { status: 'failed', 'updated_at~~from': since }),
  }));
  return h(DS.Box, { variant: 'grey', p: 'xl' },
    h(DS.H2, { mb: 'lg' }, 'School overview' + (data.scope ? ': ' + data.scope : '')),
    h(DS.Box, { flex: true, flexDirection: 'row', flexWrap: 'wrap' }, cards));
}
`;
