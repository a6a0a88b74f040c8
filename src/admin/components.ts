/**
 * The console's own browser components, served as AdminJS's components.bundle.js. AdminJS would
 * bundle components with rollup and babel at start-up (production) or on first request
 * (development), which costs seconds and memory and writes to disk; these are a few plain functions
 * over the globals AdminJS's pages already load (React, AdminJS, AdminJSDesignSystem), written in
 * the JavaScript every current browser runs, so they are sent as they are.
 */
export const componentsBundle = String.raw`(function () {
  var h = React.createElement;
  var DS = AdminJSDesignSystem;

  function Card(props) {
    return h(DS.Box, { variant: 'card', flex: true, flexDirection: 'column', p: 'lg', m: 'default', width: 220, 'data-testid': props.testId },
      h(DS.Text, { fontSize: 'sm', color: 'grey60' }, props.label),
      h(DS.Text, { fontSize: 32, fontWeight: 'bold', mt: 'sm', color: props.tone || 'grey100' }, String(props.value)));
  }

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

  // The school column, for the operator only: a school admin's records are all of its own school,
  // and a record never moves to another school, so the operator names it only on a new record.
  function PlatformOnly(props) {
    var admin = AdminJS.useCurrentAdmin()[0];
    if (!admin || admin.role !== 'platform_admin') return null;
    if (props.where === 'edit' && props.record && props.record.id) return null;
    return h(AdminJS.CleanPropertyComponent, props);
  }

  AdminJS.UserComponents = Object.assign(AdminJS.UserComponents || {}, { SchoolDashboard: SchoolDashboard, PlatformOnly: PlatformOnly });
})();
`;
