/**
 * The school column, for the operator only: a school admin's records are all of its own school,
 * and a record never moves to another school, so the operator names it only on a new record.
 */
export const platformOnly = String.raw`
function PlatformOnly(props) {
  var admin = AdminJS.useCurrentAdmin()[0];
  if (!admin || admin.role !== 'platform_admin') return null;
  if (props.where === 'edit' && props.record && props.record.id) return null;
  return h(AdminJS.CleanPropertyComponent, props);
}
`;
