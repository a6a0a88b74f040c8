/**
 * A big list (Students, Parents, Staff, Notifications, the Audit log) with a quick search box above
 * it: what is typed is the filter q, which the server looks for in the list's names, roll numbers,
 * phones or e-mails; the rest of the page is AdminJS's own list.
 */
export const quickSearchList = String.raw`
function QuickSearchList(props) {
  var query = AdminJS.useQueryParams();
  var current = (query.filters && query.filters.q) || '';
  var text = React.useState(current);
  React.useEffect(function () { text[1](current); }, [current]);
  function search(e) {
    e.preventDefault();
    var filters = Object.assign({}, query.filters || {});
    if (text[0].trim()) filters.q = text[0].trim(); else delete filters.q;
    query.storeParams({ filters: filters, page: '1' });
  }
  var hint = (props.action.custom && props.action.custom.searchHint) || 'Search';
  return h(DS.Box, null,
    h(DS.Box, { as: 'form', onSubmit: search, role: 'search', flex: true, flexDirection: 'row', mb: 'lg' },
      h(DS.Input, { type: 'search', name: 'q', 'aria-label': hint, placeholder: hint, value: text[0], 'data-testid': 'quick-search',
        onChange: function (e) { text[1](e.target.value); }, style: { flexGrow: 1, maxWidth: 480 } }),
      h(DS.Button, { type: 'submit', ml: 'default' }, h(DS.Icon, { icon: 'Search' }), 'Search')),
    h(AdminJS.List, props));
}
`;
