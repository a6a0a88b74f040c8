/**
 * Every stored code shown in a list or on a page (AdminJS's DefaultPropertyValue, replaced): the
 * label of its value as the resource gives it, word for word; a status as a badge coloured by what
 * it means (a property's custom.tones names its own, as the staff's 1 and 0).
 */
export const codeLabel = String.raw`
var TONE_OF = {
  active: 'green', published: 'green', sent: 'green', delivered: 'green', resolved: 'green', present: 'green',
  registered: 'amber', pending: 'amber', scheduled: 'amber', open: 'amber', in_progress: 'amber', late: 'amber',
  failed: 'red', suspended: 'red', absent: 'red',
  archived: 'grey', cancelled: 'grey', inactive: 'grey', skipped: 'grey', draft: 'grey', excused: 'grey',
};
var TONE_STYLE = {
  green: { background: '#0b7a4b', color: '#fff' }, amber: { background: '#b45309', color: '#fff' },
  red: { background: '#c20012', color: '#fff' }, grey: { background: '#e5e7eb', color: '#374151' },
};

function toneOf(property, value) {
  var own = property.custom && property.custom.tones;
  return (own && own[value]) || TONE_OF[value] || null;
}

function StatusBadge(props) {
  return h('span', { 'data-tone': props.tone, style: Object.assign({ display: 'inline-block', padding: '2px 10px', borderRadius: 12, fontSize: 12, fontWeight: 600, whiteSpace: 'nowrap' }, TONE_STYLE[props.tone]) }, props.label);
}

function labelFor(property, value) {
  var option = (property.availableValues || []).find(function (o) { return String(o.value) === String(value); });
  if (option) return option.label;
  var words = String(value).replace(/[_.]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function DefaultPropertyValue(props) {
  var property = props.property;
  var raw = props.record && props.record.params[property.path];
  if (!property.availableValues) return h(props.OriginalComponent, props);
  if (raw === undefined || raw === null || raw === '') return null;
  var label = labelFor(property, raw);
  var tone = toneOf(property, String(raw));
  return tone ? h(StatusBadge, { tone: tone, label: label }) : h('span', null, label);
}
`;
