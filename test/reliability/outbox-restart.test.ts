import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openDatabase, type Database } from '../../src/db.js';
import { Grade, Notification } from '../../src/models/index.js';
import { freshDatabase, mysqlUrl, type TestDatabase } from '../helpers/database.js';
import { parent, staffMember, student } from '../helpers/fixtures.js';
import { post, startServer, type ServerProcess } from '../helpers/server-process.js';

/**
 * The push outbox across a crash: a leave request acknowledged by one server process, killed with
 * SIGKILL before its worker's next pass, is delivered by the restarted process, each notification
 * once. The log provider writes one line per message sent, so the processes' output shows who sent.
 */
let database: TestDatabase;
let db: Database;
const schoolId = 'outbox-restart';
const devices = ['teacher-phone-token', 'teacher-tablet-token'];
let parentLogin: { phone_no: string; pin: string; school_id: string };
let studentId: number;

// A long maintenance interval: the only outbox passes are the worker's (at start, then every second).
const env = () => ({ DATA_DIR: database.dataDir, DATABASE_URL: database.databaseUrl, PUSH_PROVIDER: 'log', MAINTENANCE_INTERVAL_SECONDS: '86400', LOG_LEVEL: 'info' });

beforeAll(async () => {
  database = await freshDatabase();
  db = await openDatabase({ dataDir: database.dataDir, databaseUrl: database.databaseUrl });
  const setup = await startServer(env());
  try {
    expect((await post(`${setup.url}/web-app/signup`, { name: 'Head', email: 'head@outbox.example', password: 'a long password', school_id: schoolId })).status).toBe(201);
    const teacher = await staffMember(schoolId, { name: 'Class Teacher' });
    const p = await parent({ db } as never, schoolId);
    studentId = (await student(schoolId, p.id, { grade: '5' })).id;
    const [grade] = await Grade.findOrCreate({ where: { school_id: schoolId, name: '5' }, defaults: { school_id: schoolId, name: '5' } });
    await grade.update({ class_teacher_id: teacher.id });
    // The class teacher is signed in on two devices: a leave request is one notification per device.
    for (const fcm_token of devices) {
      expect((await post(`${setup.url}/teachers-app/teacher-auth-verification`, { phone_no: teacher.phone, pin: teacher.pin, school_id: schoolId, fcm_token })).status).toBe(200);
    }
    parentLogin = { phone_no: p.phone, pin: p.pin, school_id: schoolId };
  } finally {
    await setup.stop();
  }
}, 120_000);
afterAll(async () => {
  await db?.close();
  await database?.drop();
});

/** The log provider's lines for the notifications of one leave request. */
const sentLines = (server: ServerProcess, requestId: number) =>
  server
    .output()
    .split('\n')
    .filter((line) => line.includes('notification recorded') && line.includes(`"entity_id":"${requestId}"`) && line.includes('"event":"write_to_leave"'));

const rowsOf = (requestId: number) =>
  Notification.findAll({ where: { school_id: schoolId, event: 'write_to_leave', entity_id: requestId }, order: [['id', 'ASC']], raw: true });

describe(`push outbox across a SIGKILL (${mysqlUrl() ? 'MariaDB' : 'SQLite'})`, () => {
  it('delivers, from the restarted process, every notification of an acknowledged event, once each', async () => {
    // The worker polls every second: the kill lands within milliseconds of the acknowledgement, so
    // it nearly always comes before the pass. When a pass got there first the precondition is not
    // met and the event is repeated (a request the worker already took proves nothing here).
    let requestId = 0;
    let first: ServerProcess | undefined;
    for (let attempt = 0; attempt < 5 && !requestId; attempt++) {
      const server = await startServer(env());
      const login = await post(`${server.url}/parent-app/parent-auth-verification`, parentLogin);
      expect(login.status).toBe(200);
      const created = await post(
        `${server.url}/parent-app/write-to`,
        { type: 'leave', student_id: studentId, message: `Fever, attempt ${attempt}`, leave_from: '2026-03-02', leave_to: '2026-03-03' },
        { Authorization: `Bearer ${login.body!.data.access_token}` },
      );
      server.child.kill('SIGKILL');
      await server.exited;
      expect(created.status).toBe(201);
      const rows = await rowsOf(created.body!.data.id);
      const untouched = rows.every((r) => r.status === 'pending' && r.attempts === 0 && new Date(r.next_attempt_at!).getTime() <= Date.now());
      if (untouched) [requestId, first] = [created.body!.data.id as number, server];
    }
    expect(requestId).toBeGreaterThan(0);
    const pending = await rowsOf(requestId);
    expect(pending.map((r) => r.address).sort()).toEqual([...devices].sort());
    expect(sentLines(first!, requestId)).toEqual([]);

    const restartedAt = Date.now();
    const restarted = await startServer(env());
    try {
      const deadline = Date.now() + 15_000;
      while ((await rowsOf(requestId)).some((r) => r.status === 'pending') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      // A second worker pass must not send anything again.
      await new Promise((r) => setTimeout(r, 1_500));
      const delivered = await rowsOf(requestId);
      expect(delivered.map((r) => ({ id: r.id, status: r.status, attempts: r.attempts }))).toEqual(pending.map((r) => ({ id: r.id, status: 'sent', attempts: 1 })));
      for (const r of delivered) expect(new Date(r.sent_at!).getTime()).toBeGreaterThanOrEqual(restartedAt - 1000);
      expect(sentLines(restarted, requestId)).toHaveLength(devices.length);
    } finally {
      await restarted.stop();
    }
  });
});
