/** A count in a card: the dashboard's and the Reach page's figures. */
export const card = String.raw`
function Card(props) {
  return h(DS.Box, { variant: 'card', flex: true, flexDirection: 'column', p: 'lg', m: 'default', width: 220, 'data-testid': props.testId },
    h(DS.Text, { fontSize: 'sm', color: 'grey60' }, props.label),
    h(DS.Text, { fontSize: 32, fontWeight: 'bold', mt: 'sm', color: props.tone || 'grey100' }, String(props.value)));
}
`;
