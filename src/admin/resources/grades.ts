import type { ResourceWithOptions } from 'adminjs';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { Grade } from '../../models/index.js';
import { id } from '../../services/schemas.js';
import { createGrade, deleteGrade, updateGrade } from '../../services/students/grades.js';
import { parseInput } from '../../services/validation.js';
import { roleAccess } from '../access.js';
import { defineResource } from './define.js';
import { menu } from '../labels/menu.js';
import { ref } from './properties.js';

const gradeInput = z.object({ name: z.string().trim().min(1).max(60), class_teacher_id: id().nullable().optional(), sort_order: z.number().int().min(0).max(10_000).optional() });

export function gradesResource(ctx: AppContext): ResourceWithOptions {
  return defineResource(ctx, {
    model: Grade, scope: { schoolColumn: 'school_id' }, access: roleAccess.school,
    options: {
      navigation: menu.setup,
      sort: { sortBy: 'sort_order', direction: 'asc' },
      listProperties: ['name', 'class_teacher_id', 'sort_order'],
      filterProperties: ['name', 'class_teacher_id'],
      showProperties: ['school_id', 'id', 'name', 'class_teacher_id', 'sort_order', 'created_at', 'updated_at'],
      editProperties: ['school_id', 'name', 'class_teacher_id', 'sort_order'],
      properties: { name: { isTitle: true }, class_teacher_id: ref('staff') },
    },
    services: {
      fields: { name: 'text', class_teacher_id: 'reference', sort_order: 'number' },
      create: (c, p, input) => createGrade(c, p, parseInput(gradeInput, input)),
      update: (c, p, i, changes) => updateGrade(c, p, i, parseInput(gradeInput.partial(), changes)),
      remove: (c, p, i) => deleteGrade(c, p, i),
    },
  });
}
