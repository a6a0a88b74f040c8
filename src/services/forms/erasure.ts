import { Op, type Transaction } from 'sequelize';
import { Form, FormResponse } from '../../models/index.js';
import { own } from './answers.js';

interface Erased {
  studentId: number;
  /** The parent when they are erased too. */
  parentId: number | null;
  /** The erased people's names and phones, as text that may be quoted in an answer. */
  names: string[];
}

/**
 * An erasure's part of the forms. The erased family's responses (the student's, and every one of an
 * erased parent) keep their choices, consents and numbers, so the counts stay right, and lose their
 * text answers, signatures, ips and user agents; any other response of the school loses the text
 * answers that quote them. Written past the audit capture, which would copy them into the trail.
 * Answers the ids of the responses blanked.
 */
export async function blankResponses(schoolId: string, erased: Erased, transaction: Transaction): Promise<number[]> {
  const owners = [{ student_id: erased.studentId }, ...(erased.parentId !== null ? [{ parent_id: erased.parentId }] : [])];
  const quoting = erased.names.map((n) => ({ answers: { [Op.substring]: JSON.stringify(n).slice(1, -1) } }));
  const responses = await FormResponse.findAll({ where: { school_id: schoolId, [Op.or]: [...owners, ...quoting] }, attributes: ['id', 'form_id', 'parent_id', 'student_id', 'answers'], transaction });
  if (responses.length === 0) return [];
  const forms = await Form.findAll({ where: { school_id: schoolId, id: [...new Set(responses.map((r) => r.form_id))] }, attributes: ['id', 'questions'], transaction });
  const texts = new Map(forms.map((f) => [f.id, f.questions.filter((q) => q.type === 'text').map((q) => q.id)]));
  const blanked: number[] = [];
  for (const response of responses) {
    const theirs = response.student_id === erased.studentId || (erased.parentId !== null && response.parent_id === erased.parentId);
    const answers = { ...response.answers };
    for (const question of texts.get(response.form_id) ?? []) {
      const text = own(answers, question);
      if (typeof text === 'string' && (theirs || erased.names.some((n) => text.includes(n)))) answers[question] = '';
    }
    const changes = theirs ? { answers, signature: null, signed_at: null, ip: null, user_agent: null } : { answers };
    await FormResponse.update(changes, { where: { id: response.id, school_id: schoolId }, transaction, hooks: false });
    blanked.push(response.id);
  }
  return blanked;
}
