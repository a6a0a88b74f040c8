import { Op, type Transaction } from 'sequelize';
import { Form, FormResponse } from '../../models/index.js';

/**
 * An erasure's part of the forms: the given responses keep their choices, consents and numbers
 * (the counts stay right) and lose their text answers, signatures, ips and user agents. Written past
 * the audit capture, which would copy them into the trail. Answers the ids of the responses blanked.
 */
export async function blankResponses(schoolId: string, where: { studentId: number; parentId: number | null }, transaction: Transaction): Promise<number[]> {
  const owners = [{ student_id: where.studentId }, ...(where.parentId !== null ? [{ parent_id: where.parentId }] : [])];
  const responses = await FormResponse.findAll({ where: { school_id: schoolId, [Op.or]: owners }, attributes: ['id', 'form_id', 'answers'], transaction });
  if (responses.length === 0) return [];
  const forms = await Form.findAll({ where: { school_id: schoolId, id: [...new Set(responses.map((r) => r.form_id))] }, attributes: ['id', 'questions'], transaction });
  const texts = new Map(forms.map((f) => [f.id, f.questions.filter((q) => q.type === 'text').map((q) => q.id)]));
  for (const response of responses) {
    const answers = { ...response.answers };
    for (const question of texts.get(response.form_id) ?? []) if (question in answers) answers[question] = '';
    await FormResponse.update({ answers, signature: null, ip: null, user_agent: null }, { where: { id: response.id, school_id: schoolId }, transaction, hooks: false });
  }
  return responses.map((r) => r.id);
}
