import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AppContext, Principal } from '../../src/context.js';
import { createActivity, parentFeed } from '../../src/services/activities/activities.js';
import { operatorPrincipal } from '../../src/services/access/guards.js';
import { createNotice, listParentNotices } from '../../src/services/notices/notices.js';
import { parentCalendar } from '../../src/services/calendar/calendar.js';
import { submitResponse } from '../../src/services/forms/responses.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { parent, school, staffMember, student } from '../helpers/fixtures.js';

/**
 * Section 19's last rule: a parent's page of items is one statement, and its forms and the parent's
 * own responses at most one more each, whatever the number of items with a form; none when no item
 * of the page has one.
 */
let t: TestApp;
let family: Principal;
let childId: number;

/** The context with every statement of the hot path counted. */
function counting(ctx: AppContext): { ctx: AppContext; statements: string[] } {
  const statements: string[] = [];
  const db = { ...ctx.db, select: (sql: string, params?: Record<string, unknown> | unknown[]) => (statements.push(sql), ctx.db.select(sql, params)) } as AppContext['db'];
  return { ctx: { ...ctx, db }, statements };
}

beforeAll(async () => {
  t = await startTestApp();
  const a = await school(t);
  const p = await parent(t.ctx, a.schoolId);
  childId = (await student(a.schoolId, p.id)).id;
  family = { type: 'parent', userId: p.id, schoolId: a.schoolId, sessionId: 0 };
  const author = (await staffMember(a.schoolId)).id;
  const operator = operatorPrincipal(a.schoolId);
  const form = { questions: [{ id: 'ok', type: 'consent' as const, label: 'Allowed' }] };
  for (let i = 0; i < 12; i++) await createActivity(t.ctx, operator, { title: `Plain ${i}`, staff_id: author });
  for (let i = 0; i < 12; i++) {
    const made = await createActivity(t.ctx, operator, { title: `Slip ${i}`, staff_id: author, activity_type: 'event', starts_at: new Date(Date.now() + (i + 1) * 3_600_000).toISOString(), form });
    if (i % 2 === 0) await submitResponse(t.ctx, family, made.form!.id, { student_id: childId, answers: { ok: 'decline' } }, { ip: null, userAgent: null });
  }
  for (let i = 0; i < 5; i++) await createNotice(t.ctx, operator, { notice_title: `Notice ${i}`, ...(i % 2 ? { form: { ...form, per_student: false } } : {}) });
});
afterAll(async () => t.close());

describe("a parent's page of items", () => {
  it('is one statement when no item of the page has a form', async () => {
    const { ctx, statements } = counting(t.ctx);
    const page = await parentFeed(ctx, family, { limit: 12, page: 2 });
    expect(page.map((x) => x.title)).toEqual(Array.from({ length: 12 }, (_, i) => `Plain ${11 - i}`));
    expect(page.every((x) => x.form === null)).toBe(true);
    expect(statements).toHaveLength(1);
  });

  it('takes one more for the forms and one for the parent\'s responses, however many items have a form', async () => {
    const { ctx, statements } = counting(t.ctx);
    const page = await parentFeed(ctx, family, { limit: 20 });
    expect(page.filter((x) => x.form !== null)).toHaveLength(12);
    expect(page.filter((x) => x.form?.my_responses?.length === 1)).toHaveLength(6);
    expect(statements).toHaveLength(3);
    expect(statements[1]).toMatch(/FROM forms f WHERE f\.school_id = :school AND f\.id IN \(:ids\)/);
    expect(statements[2]).toMatch(/FROM form_responses r WHERE r\.school_id = :school AND r\.parent_id = :parent AND r\.form_id IN \(:ids\)/);
  });

  it('is the same on the noticeboard and the calendar', async () => {
    const board = counting(t.ctx);
    expect((await listParentNotices(board.ctx, family, {})).filter((n) => n.form !== null)).toHaveLength(2);
    expect(board.statements).toHaveLength(3);
    const calendar = counting(t.ctx);
    expect(await parentCalendar(calendar.ctx, family, {})).toHaveLength(12);
    expect(calendar.statements).toHaveLength(3);
  });
});
