import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parse } from 'csv-parse/sync';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AuditEvent } from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { bearer, school, student, type SchoolFixture } from '../helpers/fixtures.js';

/** `school-platform audit export`: every event of a range, streamed in constant memory, as JSON lines or CSV. */
let t: TestApp;
let a: SchoolFixture;
const dir = mkdtempSync(path.join(tmpdir(), 'sp-audit-export-'));
const EVENTS = 100_000;

/** The old generation's cap for the export run: the command starts in less than 40 MB, and fails at 24. */
const HEAP_MB = 64;

beforeAll(async () => {
  t = await startTestApp();
  a = await school(t);
});
afterAll(async () => t.close());

describe('audit export', () => {
  it('streams 100,000 events from the command line within a heap far smaller than they are', async () => {
    const big = await school(t);
    const filler = 'x'.repeat(600);
    const at = new Date('2026-01-01T00:00:00Z');
    for (let i = 0; i < EVENTS; i += 5000) {
      await AuditEvent.bulkCreate(Array.from({ length: 5000 }, (_, j) => ({
        school_id: big.schoolId, at, actor_type: 'admin' as const, actor_id: '1', actor_name: 'Head Admin', door: 'api' as const, action: 'student.update',
        entity_type: 'student' as const, entity_id: String(i + j), changes: { note: [null, `${i + j} ${filler}`] }, ip: null, request_id: null,
      })), { hooks: false });
    }
    const file = path.join(dir, 'big.jsonl');
    // The events come to over 60 MB of text and several times that as rows: an export that held them
    // (or its text) would run out of this heap.
    const run = await runCli(cliEnv(t, { NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}` }), ['audit', 'export', '--school', big.schoolId, '--out', file]);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    // The school's own set-up wrote a few events before the 100,000.
    const count = Number(new RegExp(`^(\\d+) event\\(s\\) of ${big.schoolId} written to `).exec(run.stdout)?.[1]);
    expect(count).toBeGreaterThanOrEqual(EVENTS);
    expect(statSync(file).size).toBeGreaterThan(60 * 1024 * 1024);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(count);
    expect(lines.map((l) => JSON.parse(l).school_id)).toEqual(lines.map(() => big.schoolId));
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ entity_id: String(EVENTS - 1), changes: { note: [null, expect.stringMatching(/^99999 /)] } });
  }, 600_000);

  it('the command line: CSV or JSON lines, a time range, to a file or stdout', async () => {
    const s = await student(a.schoolId, null, { grade: '5' });
    await t.api.put(`/web-app/students/${s.id}`).set(bearer(a.adminToken)).send({ grade: '6' });
    const env = cliEnv(t);
    const out = path.join(dir, 'school.csv');
    const csvRun = await runCli(env, ['audit', 'export', '--school', a.schoolId, '--format', 'csv', '--out', out]);
    expect(csvRun.code).toBe(0);
    const rows = parse(readFileSync(out, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    const update = rows.find((r) => r.action === 'student.update' && r.entity_id === String(s.id))!;
    expect(update).toMatchObject({ school_id: a.schoolId, actor_type: 'admin', door: 'api', entity_type: 'student' });
    expect(JSON.parse(update.changes!)).toEqual({ grade: ['5', '6'] });
    const stdout = await runCli(env, ['audit', 'export', '--school', a.schoolId, '--from', new Date(Date.now() + 3_600_000).toISOString()]);
    expect(stdout.code).toBe(0);
    expect(stdout.stdout).toBe('');
    expect(stdout.stderr).toContain('0 event(s) exported');
    const all = await runCli(env, ['audit', 'export', '--school', a.schoolId, '--to', '2100-01-01']);
    expect(all.stdout.trimEnd().split('\n').map((l) => JSON.parse(l).school_id)).toEqual(rows.map(() => a.schoolId));
    expect((await runCli(env, ['audit', 'export', '--school', a.schoolId, '--format', 'xml'])).code).toBe(2);
    // A school that does not exist is a refusal (1), as for every command; a bad flag is a usage error (2).
    const unknown = await runCli(env, ['audit', 'export', '--school', 'no-such-school']);
    expect({ code: unknown.code, stdout: unknown.stdout }).toEqual({ code: 1, stdout: '' });
  }, 120_000);
});
