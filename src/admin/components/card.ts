/** A count in a card: the dashboard's and the Reach page's figures; with `href`, the card opens the list it counts. */
export const card = String.raw`
function Card(props) {
  var body = [
    h(DS.Text, { key: 'label', fontSize: 'sm', color: 'grey60' }, props.label),
    h(DS.Text, { key: 'value', fontSize: 32, fontWeight: 'bold', mt: 'sm', color: props.tone || 'grey100' }, String(props.value)),
  ];
  var box = { variant: 'card', flex: true, flexDirection: 'column', p: 'lg', m: 'default', width: 220, 'data-testid': props.testId };
  if (!props.href) return h(DS.Box, box, body);
  return h(DS.Box, Object.assign(box, { as: 'a', href: props.href, style: { textDecoration: 'none', cursor: 'pointer' } }), body);
}
`;
