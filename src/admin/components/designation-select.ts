/**
 * A staff member's designation, picked from the school's designations (its Designations list, as
 * the admin may read it): the value kept is the designation's name; the empty choice is none. In
 * the Staff list's filters, the same names.
 */
export const designationSelect = String.raw`
function useDesignations(schoolId) {
  var state = React.useState(null);
  React.useEffect(function () {
    var params = { perPage: 500, sortBy: 'name', direction: 'asc' };
    if (schoolId) params['filters.school_id'] = schoolId;
    new AdminJS.ApiClient().resourceAction({ resourceId: 'designations', actionName: 'list', params: params })
      .then(function (r) { state[1]((r.data.records || []).map(function (d) { return d.params.name; })); }, function () { state[1]([]); });
  }, [schoolId]);
  return state[0];
}

function DesignationSelect(props) {
  var property = props.property;
  var filtering = props.where === 'filter';
  var names = useDesignations(filtering ? null : props.record.params.school_id);
  var current = filtering ? (props.filter || {})[property.path] : props.record.params[property.path];
  var options = (names || []).map(function (n) { return { value: n, label: n }; });
  if (current && !options.some(function (o) { return o.value === current; })) options.unshift({ value: current, label: current });
  var none = { value: '', label: 'No designation' };
  var value = current ? { value: current, label: current } : filtering ? null : none;
  var select = h(DS.Select, { inputId: property.path, variant: filtering ? 'filter' : 'default', isLoading: names === null, value: value,
    options: filtering ? options : [none].concat(options), filterOption: startsWithInput,
    onChange: function (o) { props.onChange(property.path, o ? o.value : ''); } });
  if (!filtering) return h(FieldShell, props, select);
  var label = AdminJS.useTranslation().translateProperty(property.label, property.resourceId);
  return h(DS.FormGroup, null, h(DS.Label, null, label), select);
}
`;
