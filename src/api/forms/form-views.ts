import { z } from 'zod';
import { questionTypes } from '../../services/forms/definition.js';
import { timestamp } from '../../services/schemas.js';

/** How a form and its responses look in every answer that carries them (CONTRACT.md section 26). */
const optionView = z.object({
  id: z.string(),
  label: z.string(),
  capacity: z.number().optional(),
  remaining: z.number().optional().describe('With a capacity: the places left (never below 0)'),
});

const questionView = z.object({
  id: z.string(),
  type: z.enum(questionTypes),
  label: z.string(),
  required: z.boolean(),
  options: z.array(optionView).optional().describe('choice only'),
  multiple: z.boolean().optional().describe('choice only'),
  min: z.number().optional().describe('number only, when set'),
  max: z.number().optional().describe('number only, when set'),
});

const formBase = {
  id: z.number(),
  questions: z.array(questionView),
  due_at: timestamp().nullable(),
  per_student: z.boolean().describe('One response per child of the audience (true) or per family'),
  editable: z.boolean().describe('A family may change its response until the form closes'),
  closed: z.boolean().describe('Closed by the school, or past its due_at'),
};

export const answersView = z.record(z.string(), z.union([z.string(), z.array(z.string()), z.number()])).describe('Keyed by question id: the answered questions only');

export const responseView = z.object({
  id: z.number(),
  form_id: z.number(),
  student_id: z.number().nullable().describe('Null on a per-family form'),
  answers: answersView,
  signature: z.string().nullable(),
  signed_at: timestamp().nullable().describe('When the signature was given'),
  submitted_at: timestamp(),
  updated_at: timestamp(),
});

/** Staff and admins' view: with the number of responses. */
export const staffFormView = z.object({ ...formBase, response_count: z.number() });
/** Parents' view: with their own responses, oldest first. */
export const parentFormView = z.object({ ...formBase, my_responses: z.array(responseView.omit({ form_id: true })) });

export const formExample = {
  questions: [
    { id: 'consent', type: 'consent', label: 'I allow my child to go on the trip to the science museum', required: true },
    { id: 'lunch', type: 'choice', label: 'Lunch', required: true, options: [{ id: 'veg', label: 'Vegetarian' }, { id: 'nonveg', label: 'Non-vegetarian' }] },
    { id: 'helpers', type: 'choice', label: 'I can help on the day', options: [{ id: 'bus', label: 'On the bus', capacity: 4 }, { id: 'museum', label: 'At the museum', capacity: 2 }] },
  ],
  due_at: '2026-12-01T12:00:00.000Z',
  per_student: true,
};
