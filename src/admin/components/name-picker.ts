/**
 * A field that holds the name of one of the school's records (a staff member's designation, a
 * student's grade), picked from that list as the admin may read it: property.custom.pick names the
 * resource, its order and the empty choice, if any. In a list's filters, the same names.
 */
export const namePicker = String.raw`
function useNames(resource, sortBy, schoolId) {
  var state = React.useState(null);
  React.useEffect(function () {
    var params = { perPage: 500, sortBy: sortBy || 'name', direction: 'asc' };
    if (schoolId) params['filters.school_id'] = schoolId;
    new AdminJS.ApiClient().resourceAction({ resourceId: resource, actionName: 'list', params: params })
      .then(function (r) { state[1]((r.data.records || []).map(function (d) { return d.params.name; })); }, function () { state[1]([]); });
  }, [resource, schoolId]);
  return state[0];
}

function NamePicker(props) {
  var property = props.property;
  var pick = (property.custom && property.custom.pick) || {};
  var filtering = props.where === 'filter';
  var names = useNames(pick.resource, pick.sortBy, filtering ? null : props.record.params.school_id);
  var current = filtering ? (props.filter || {})[property.path] : props.record.params[property.path];
  var options = (names || []).map(function (n) { return { value: n, label: n }; });
  if (current && !options.some(function (o) { return o.value === current; })) options.unshift({ value: current, label: current });
  var none = pick.none && !filtering ? { value: '', label: pick.none } : null;
  var value = current ? { value: current, label: current } : none;
  var select = h(DS.Select, { inputId: property.path, variant: filtering ? 'filter' : 'default', isLoading: names === null, value: value,
    options: none ? [none].concat(options) : options, filterOption: startsWithInput, 'aria-label': property.label,
    onChange: function (o) { props.onChange(property.path, o ? o.value : ''); } });
  if (!filtering) return h(FieldShell, props, select);
  var label = AdminJS.useTranslation().translateProperty(property.label, property.resourceId);
  return h(DS.FormGroup, null, h(DS.Label, null, label), select);
}
`;
