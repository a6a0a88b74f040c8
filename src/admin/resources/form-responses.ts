import type { ResourceWithOptions } from 'adminjs';
import { Op } from 'sequelize';
import type { AppContext } from '../../context.js';
import { Form, FormResponse } from '../../models/index.js';
import { roleAccess } from '../access.js';
import type { Enricher } from '../scoped-resource.js';
import { defineResource } from './define.js';
import { own } from '../../services/forms/answers.js';
import { answerText } from './form-fields.js';
import { linkedNames } from './linked-names.js';
import { menu } from '../labels/menu.js';
import { named, readOnly, ref } from './properties.js';

/** Each response's item (through its form) and, on its page, its answers in words, question by question. */
const formOfResponse: Enricher = async (rows, _admin, detail) => {
  const ids = [...new Set(rows.map((r) => Number(r.form_id)))];
  const forms = new Map((await Form.findAll({ where: { id: { [Op.in]: ids } } })).map((f) => [f.id, f]));
  for (const row of rows) {
    const form = forms.get(Number(row.form_id));
    if (!form || form.school_id !== row.school_id) continue;
    row.item_type = form.entity_type;
    row.item_id = form.entity_id;
    if (!detail) continue;
    const answers = (typeof row.answers === 'string' ? JSON.parse(row.answers) : row.answers) as Record<string, unknown>;
    row.answers_shown = form.questions.map((q) => `${q.label}: ${answerText(q, own(answers, q.id)) || '(no answer)'}`).join('\n');
  }
};

/** Form responses: read only, scoped to the admin's school like every resource. */
export function formResponsesResource(ctx: AppContext): ResourceWithOptions {
  return defineResource(ctx, {
    model: FormResponse,
    scope: { schoolColumn: 'school_id', enrich: [formOfResponse, linkedNames('item', (r) => (r.item_type ? { kind: String(r.item_type), id: r.item_id } : null))] },
    access: roleAccess.readOnly,
    options: {
      navigation: menu.communication,
      sort: { sortBy: 'submitted_at', direction: 'desc' },
      listProperties: ['item', 'student_id', 'parent_id', 'signature', 'submitted_at'],
      filterProperties: ['form_id', 'student_id', 'parent_id', 'submitted_at'],
      showProperties: ['school_id', 'id', 'item', 'form_id', 'student_id', 'parent_id', 'answers_shown', 'signature', 'signed_at', 'ip', 'user_agent', 'submitted_at', 'updated_at'],
      properties: {
        item: named(),
        form_id: { type: 'number', isVisible: { list: false, filter: true, show: true, edit: false } },
        student_id: ref('students'),
        parent_id: ref('parents'),
        answers_shown: { type: 'textarea', isVisible: { list: false, filter: false, show: true, edit: false } },
        answers: { isVisible: false },
        respondent: { isVisible: false },
        submitted_at: readOnly,
      },
    },
    services: {},
  });
}
