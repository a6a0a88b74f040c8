import { describe, it, expect } from '@jest/globals';
import { z } from 'zod';
import { exampleOf } from '../../src/api/openapi-examples.js';
import { date, email, id, name, phone, pin, schoolIdField, title } from '../../src/services/schemas.js';

/** Examples generated for schemas no route has yet: a new route gets a valid example without writing one. */
const generated = (schema: z.ZodType, io: 'input' | 'output' = 'input') =>
  exampleOf(z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>);

describe('generated examples', () => {
  it('satisfy the constraints of the shared field schemas and of bounds, enums, nullables and arrays', () => {
    const schema = z.object({
      school_id: schoolIdField(),
      name: name(),
      email: email(),
      phone_no: phone(),
      pin: pin(),
      title: title(),
      due_date: date(),
      student_id: id(),
      seats: z.number().int().min(5).max(10),
      ratio: z.number().gt(0).lt(1),
      kind: z.enum(['homework', 'classwork']),
      note: z.string().max(3).nullable(),
      code: z.string().regex(/^[A-Z]{2}-\d{3}$/).meta({ examples: ['AB-123'] }),
      tags: z.array(z.string().min(2)).min(2),
      rbac: z.record(z.enum(['diary', 'attendance']), z.enum(['none', 'view'])),
    });
    const example = generated(schema);
    expect(schema.safeParse(example).error?.issues ?? []).toEqual([]);
    expect(example).toMatchObject({ school_id: 'greenwood', email: 'principal@greenwood.example', kind: 'homework', code: 'AB-123', rbac: { diary: 'none', attendance: 'none' } });
    expect((example as { tags: string[] }).tags).toHaveLength(2);
  });

  it('fill a response with every field, timestamps as ISO strings in UTC', () => {
    const schema = z.object({ id: z.number(), created_at: z.string(), resolved_at: z.string().nullable(), counts: z.object({ like: z.number() }) });
    expect(generated(schema, 'output')).toEqual({ id: 1, created_at: '2026-11-22T09:30:00.000Z', resolved_at: '2026-11-22T09:30:00.000Z', counts: { like: 1 } });
  });
});
