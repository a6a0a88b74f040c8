import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parse } from 'csv-parse/sync';
import { createWriteStream, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { AuditEvent } from '../../src/models/index.js';
import { exportAuditEvents } from '../../src/services/audit/audit-log.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { bearer, school, student, type SchoolFixture } from '../helpers/fixtures.js';

/** `school-platform audit export`: every event of a range, streamed in constant memory, as JSON lines or CSV. */
let t: TestApp;
let a: SchoolFixture;
const dir = mkdtempSync(path.join(tmpdir(), 'sp-audit-export-'));
const EVENTS = 100_000;

// What stays reachable is what a leak holds: measured after full collections, not with the garbage V8 has not collected yet.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const live = () => {
  gc();
  return process.memoryUsage().heapUsed;
};

beforeAll(async () => {
  t = await startTestApp();
  a = await school(t);
});
afterAll(async () => t.close());

describe('audit export', () => {
  it('streams 100,000 events with the heap flat', async () => {
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
    const out = createWriteStream(file);
    const start = live();
    let peak = start;
    const sampler = setInterval(() => (peak = Math.max(peak, live())), 1000);
    let count: number;
    try {
      count = await exportAuditEvents(big.schoolId, {}, 'jsonl', out);
      out.end();
      await finished(out);
    } finally {
      clearInterval(sampler);
    }
    expect(count).toBeGreaterThanOrEqual(EVENTS);
    const size = statSync(file).size;
    // The file is over 60 MB; holding the events, or the text, would grow the heap by as much.
    expect(size).toBeGreaterThan(60 * 1024 * 1024);
    expect((peak - start) / 1024 / 1024).toBeLessThan(20);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(count);
    expect(JSON.parse(lines[0]!)).toMatchObject({ school_id: big.schoolId, action: expect.any(String) });
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
    expect((await runCli(env, ['audit', 'export', '--school', 'no-such-school'])).code).toBe(2);
  }, 120_000);
});
