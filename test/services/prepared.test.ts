import { describe, expect, it } from '@jest/globals';
import { bindPositional } from '../../src/prepared.js';

describe('binding a statement for a MySQL prepared statement', () => {
  it('turns named placeholders into ? with the values in statement order, a repeated name bound twice', () => {
    expect(bindPositional('SELECT * FROM t WHERE a = :school AND b = :id OR c = :school', { id: 7, school: 'sch-1' })).toEqual({
      sql: 'SELECT * FROM t WHERE a = ? AND b = ? OR c = ?',
      values: ['sch-1', 7, 'sch-1'],
    });
  });

  it('expands a list into one placeholder per value, and an empty list into NULL so that IN () matches nothing', () => {
    expect(bindPositional('SELECT id FROM t WHERE id IN (:ids) AND s = :s', { ids: [3, 4, 5], s: 'x' })).toEqual({
      sql: 'SELECT id FROM t WHERE id IN (?, ?, ?) AND s = ?',
      values: [3, 4, 5, 'x'],
    });
    expect(bindPositional('SELECT id FROM t WHERE id IN (:ids)', { ids: [] })).toEqual({ sql: 'SELECT id FROM t WHERE id IN (NULL)', values: [] });
  });

  it('leaves colons and question marks inside quoted literals and identifiers alone', () => {
    const sql = "SELECT `a:b`, 'at 10:30?', \"x:y\", 'it\\'s :not' FROM t WHERE d = :d";
    expect(bindPositional(sql, { d: 1 })).toEqual({ sql: "SELECT `a:b`, 'at 10:30?', \"x:y\", 'it\\'s :not' FROM t WHERE d = ?", values: [1] });
  });

  it('makes each run of white space outside quotes one space, and leaves the quoted text as it is', () => {
    const sql = `SELECT a,
        b   FROM t
      WHERE c = :c AND d = '  two  spaces '`;
    expect(bindPositional(sql, { c: 1 })).toEqual({ sql: "SELECT a, b FROM t WHERE c = ? AND d = '  two  spaces '", values: [1] });
    expect(bindPositional(`${sql} AND e IN (:e)`, { c: 1, e: [2, 3] }).sql).toBe("SELECT a, b FROM t WHERE c = ? AND d = '  two  spaces ' AND e IN (?, ?)");
    expect(bindPositional('SELECT a -- :not a placeholder\n FROM t /* nor :this */ WHERE b = :b', { b: 2 })).toEqual({ sql: 'SELECT a FROM t WHERE b = ?', values: [2] });
    expect(bindPositional('SELECT a--1 FROM t WHERE b = :b', { b: 2 })).toEqual({ sql: 'SELECT a--1 FROM t WHERE b = ?', values: [2] });
  });

  it('takes positional values for ? placeholders', () => {
    expect(bindPositional('UPDATE t SET a = ? WHERE id IN (?)', ['v', [1, 2]])).toEqual({ sql: 'UPDATE t SET a = ? WHERE id IN (?, ?)', values: ['v', 1, 2] });
  });

  it('refuses a placeholder without a value rather than binding NULL', () => {
    expect(() => bindPositional('SELECT * FROM t WHERE a = :a AND b = :b', { a: 1 })).toThrow(':b has no value');
  });
});
