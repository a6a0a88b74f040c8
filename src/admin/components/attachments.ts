/**
 * An item's files (CONTRACT.md section 25): each as a thumbnail (an image) or its name (a PDF),
 * linked to the URL the server signed for this page. AttachmentsEdit, on an item's new and edit
 * forms, uploads the files chosen (several at once) through the resource's `upload` action, lets
 * each be taken off, and sends the ids in order as `attachment_ids`; the item's service then
 * attaches them, or refuses them as it would through the API. FileUploader is its widget, also a
 * field type of record actions (a reply's files).
 */
export const attachments = String.raw`
function AttachmentChip(props) {
  var a = props.attachment;
  var link = h('a', { href: a.url, target: '_blank', rel: 'noopener', title: a.name, 'data-testid': 'attachment-link' },
    a.thumbnail_url
      ? h('img', { src: a.thumbnail_url, alt: a.name, 'data-testid': 'attachment-thumbnail', style: { display: 'block', maxWidth: 120, maxHeight: 120, borderRadius: 4, border: '1px solid #e5e7eb' } })
      : h('span', { style: { display: 'inline-block', padding: '8px 12px', border: '1px solid #e5e7eb', borderRadius: 4 } },
        h('span', { style: { fontSize: 11, fontWeight: 'bold', color: '#fff', background: '#b91c1c', borderRadius: 3, padding: '1px 4px', marginRight: 6 } }, 'PDF'), a.name));
  return h(DS.Box, { mr: 'lg', mb: 'default', style: { display: 'inline-block', verticalAlign: 'top', maxWidth: 140 }, 'data-testid': 'attachment' },
    link,
    a.thumbnail_url ? h(DS.Text, { variant: 'sm', style: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } }, a.name) : null,
    props.onRemove ? h(DS.Button, { type: 'button', size: 'sm', mt: 'sm', variant: 'text', 'data-testid': 'attachment-remove', 'aria-label': 'Take off ' + a.name,
      onClick: props.onRemove }, 'Take off') : null);
}

function AttachmentRow(props) {
  var list = props.attachments || [];
  if (!list.length) return h(DS.Text, { color: 'grey60' }, props.empty || 'No files');
  return h(DS.Box, { 'data-testid': 'attachments' }, list.map(function (a, i) {
    return h(AttachmentChip, { key: a.id, attachment: a, onRemove: props.onRemove ? function () { props.onRemove(i); } : null });
  }));
}

function AttachmentList(props) {
  var property = props.property;
  var label = AdminJS.useTranslation().translateProperty(property.label, property.resourceId);
  return h(DS.ValueGroup, { label: label }, h(AttachmentRow, { attachments: AdminJS.flat.get(props.record.params, property.path) || [] }));
}

/** Uploads the files one after the other, so they keep the order they were chosen in. */
function uploadAll(resourceId, files, schoolId, onEach) {
  return files.reduce(function (done, file) {
    return done.then(function () {
      var data = new FormData();
      data.append('file', file, file.name);
      if (schoolId) data.append('school_id', schoolId);
      return new AdminJS.ApiClient().resourceAction({ resourceId: resourceId, actionName: 'upload', method: 'post', data: data }).then(function (r) {
        if (r.data.attachment) return onEach(r.data.attachment, null);
        var notice = r.data.notice;
        onEach(null, file.name + ': ' + ((notice && notice.message) || 'it could not be uploaded'));
      }, function () { onEach(null, file.name + ': the console could not reach the server'); });
    });
  }, Promise.resolve());
}

function FileUploader(props) {
  var busy = React.useState(false), errors = React.useState([]);
  var list = props.value || [];
  var latest = React.useRef(list);
  latest.current = list;
  function choose(e) {
    var files = Array.prototype.slice.call(e.target.files || []);
    e.target.value = '';
    if (!files.length) return;
    busy[1](true);
    errors[1]([]);
    var refused = [];
    uploadAll(props.resourceId, files, props.schoolId, function (attachment, error) {
      if (attachment) props.onChange(latest.current.concat([attachment]));
      if (error) refused.push(error);
    }).then(function () { busy[1](false); errors[1](refused); });
  }
  return h(DS.Box, { 'data-testid': 'file-uploader' },
    h(AttachmentRow, { attachments: list, empty: 'No files yet', onRemove: function (i) { props.onChange(list.filter(function (_, j) { return j !== i; })); } }),
    h(DS.Box, { mt: 'default' },
      h('input', { type: 'file', multiple: true, 'data-testid': 'attachment-input', accept: 'image/jpeg,image/png,image/gif,image/webp,application/pdf', disabled: busy[0], onChange: choose }),
      busy[0] ? h(DS.Text, { variant: 'sm', mt: 'sm' }, 'Uploading…') : null),
    errors[0].map(function (m, i) { return h(DS.MessageBox, { key: i, variant: 'danger', mt: 'default', message: m, 'data-testid': 'attachment-error' }); }),
    h(DS.Text, { variant: 'sm', color: 'grey60', mt: 'sm' }, 'Photos (JPEG, PNG, GIF, WebP) and PDFs, up to 20 MiB each and 10 on an item. Photos are stored without their location and camera details.'));
}

function AttachmentsEdit(props) {
  var record = props.record;
  var start = AdminJS.flat.get(record.params, 'attachments') || [];
  var state = React.useState(start);
  var label = AdminJS.useTranslation().translateProperty(props.property.label, props.property.resourceId);
  var error = record.errors && record.errors[props.property.path];
  function change(next) {
    state[1](next);
    props.onChange(props.property.path, next.map(function (a) { return a.id; }).join(','));
  }
  return h(DS.FormGroup, { error: !!error, mb: 'xl' },
    h(DS.Label, null, label),
    h(FileUploader, { resourceId: props.resource.id, schoolId: record.params.school_id, value: state[0], onChange: change }),
    error ? h(DS.FormMessage, null, error.message) : null);
}
`;
