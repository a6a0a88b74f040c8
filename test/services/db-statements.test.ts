import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { UniqueConstraintError } from 'sequelize';
import { iso, sqlTime, type Tx } from '../../src/db.js';
import { Session } from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { school } from '../helpers/fixtures.js';

// The services' bound statements (db.select / execute / insert), on whichever database the suite runs.
describe('bound statements', () => {
  let t: TestApp;
  let schoolId: string;
  let adminId: number;
  beforeAll(async () => {
    t = await startTestApp();
    ({ schoolId, adminId } = await school(t));
  });
  afterAll(async () => t.close());

  const newSession = (hash: string, at: Date) =>
    t.ctx.db.insert(
      `INSERT INTO sessions (school_id, token_hash, user_type, user_id, created_at, last_seen_at, expires_at, active)
       VALUES (:school, :hash, 'admin', :user, :at, :at, :at, :active)`,
      { school: schoolId, hash, user: adminId, at, active: true },
    );

  it('binds dates as the models write them, so a bound date finds and orders the rows a model wrote', async () => {
    const at = new Date('2026-03-04T05:06:07.089Z');
    const row = await Session.create({ school_id: schoolId, token_hash: 'a'.repeat(64), user_type: 'admin', user_id: adminId, last_seen_at: at, expires_at: at });
    const found = await t.ctx.db.select<{ id: number; expires_at: string }>('SELECT id, expires_at FROM sessions WHERE school_id = :school AND expires_at = :at', { school: schoolId, at });
    expect(found.map((r) => Number(r.id))).toEqual([row.id]);
    expect(iso(found[0]!.expires_at)).toBe('2026-03-04T05:06:07.089Z');
    const later = await t.ctx.db.select('SELECT id FROM sessions WHERE school_id = :school AND expires_at > :at', { school: schoolId, at: new Date(at.getTime() - 1) });
    expect(later.map((r) => Number(r.id))).toContain(row.id);
    expect(await t.ctx.db.select('SELECT id FROM sessions WHERE id = :id AND expires_at > :at', { id: row.id, at })).toEqual([]);
  });

  it('answers the new id of an insert and the changed rows of a write, with booleans and lists bound', async () => {
    const at = new Date();
    const first = await newSession('b'.repeat(64), at);
    const second = await newSession('c'.repeat(64), at);
    expect(second).toBeGreaterThan(first);
    const rows = await t.ctx.db.select<{ id: number; active: number | boolean }>('SELECT id, active FROM sessions WHERE id IN (:ids) ORDER BY id', { ids: [first, second] });
    expect(rows.map((r) => [Number(r.id), Number(r.active)])).toEqual([[first, 1], [second, 1]]);
    expect(await t.ctx.db.execute('UPDATE sessions SET active = :active WHERE id IN (:ids)', { active: false, ids: [first, second] })).toBe(2);
    expect(await t.ctx.db.execute('UPDATE sessions SET active = :active WHERE id IN (:ids)', { active: false, ids: [] })).toBe(0);
    const after = await t.ctx.db.select<{ n: number }>('SELECT COUNT(*) AS n FROM sessions WHERE id IN (:ids) AND active = :active', { ids: [first, second], active: false });
    expect(Number(after[0]!.n)).toBe(2);
  });

  it("reports a duplicate key with Sequelize's error class, and the statement keeps working", async () => {
    await newSession('d'.repeat(64), new Date());
    await expect(newSession('d'.repeat(64), new Date())).rejects.toBeInstanceOf(UniqueConstraintError);
    expect(await newSession('e'.repeat(64), new Date())).toBeGreaterThan(0);
  });

  const countOf = async (hash: string) =>
    Number((await t.ctx.db.select<{ n: number }>('SELECT COUNT(*) AS n FROM sessions WHERE token_hash = :hash', { hash }))[0]!.n);
  const insertIn = (tx: Tx, hash: string) =>
    tx.write(
      `INSERT INTO sessions (school_id, token_hash, user_type, user_id, created_at, last_seen_at, expires_at, active)
       VALUES (:school, :hash, 'admin', :user, :at, :at, :at, 1)`,
      { school: schoolId, hash, user: adminId, at: sqlTime(t.ctx.db.dialect, new Date()) },
    );

  it('commits the writes of a transaction together, each answering its id or changed rows, and reads its own writes', async () => {
    const ids = await t.ctx.db.transact(async (tx) => {
      const id = await insertIn(tx, 'f'.repeat(64));
      expect((await tx.select<{ id: number }>('SELECT id FROM sessions WHERE token_hash = :hash', { hash: 'f'.repeat(64) })).map((r) => Number(r.id))).toEqual([id]);
      expect(await tx.write('UPDATE sessions SET active = 0 WHERE id = :id', { id })).toBe(1);
      return id;
    });
    expect(ids).toBeGreaterThan(0);
    expect(await countOf('f'.repeat(64))).toBe(1);
  });

  it('undoes every write of a transaction whose work fails, a duplicate key reported as Sequelize reports it', async () => {
    await newSession('9'.repeat(64), new Date());
    await expect(t.ctx.db.transact(async (tx) => {
      await insertIn(tx, '8'.repeat(64));
      await insertIn(tx, '9'.repeat(64));
    })).rejects.toBeInstanceOf(UniqueConstraintError);
    expect(await countOf('8'.repeat(64))).toBe(0);
    // The connection went back to its pool clean: the next transaction commits.
    await t.ctx.db.transact((tx) => insertIn(tx, '7'.repeat(64)));
    expect(await countOf('7'.repeat(64))).toBe(1);
  });

  it('starts each transaction on what is committed by then: a read-only one ends too, and keeps no old snapshot for the next', async () => {
    const inTx = (hash: string) =>
      t.ctx.db.transact(async (tx) => Number((await tx.select<{ n: number }>('SELECT COUNT(*) AS n FROM sessions WHERE token_hash = :hash', { hash }))[0]!.n));
    // More transactions at once than the pool has connections, so every connection has read before the write below.
    expect(await Promise.all(Array.from({ length: 12 }, () => inTx('6'.repeat(64))))).toEqual(Array(12).fill(0));
    await newSession('6'.repeat(64), new Date());
    expect(await Promise.all(Array.from({ length: 12 }, () => inTx('6'.repeat(64))))).toEqual(Array(12).fill(1));
  });
});

describe('closing the database', () => {
  it('closes after statements have run (SQLite refuses to close a connection with statements left open)', async () => {
    const t = await startTestApp();
    await t.ctx.db.select('SELECT id FROM schools WHERE id = :id', { id: 'none' });
    await t.ctx.db.execute('UPDATE schools SET name = name WHERE id = :id', { id: 'none' });
    await expect(t.close()).resolves.toBeUndefined();
  });
});
