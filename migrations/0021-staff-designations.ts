import { QueryTypes, type Sequelize } from 'sequelize';

/**
 * A staff member's designation now names one of the school's designations (stored in its spelling)
 * or none. Rows written before that rule may hold a name no designation has: each such name becomes
 * a designation of its school with no permissions, so nobody's permissions change and the office
 * sees the stray names among its designations. A name matching a designation in another case takes
 * the designation's spelling; a blank one becomes none.
 */
export const name = '0021-staff-designations';

export async function up(sequelize: Sequelize): Promise<void> {
  const select = <T extends object>(sql: string) => sequelize.query<T>(sql, { type: QueryTypes.SELECT });
  const held = await select<{ school_id: string; designation: string }>(
    'SELECT DISTINCT school_id, designation FROM staff WHERE designation IS NOT NULL ORDER BY school_id, designation',
  );
  if (held.length === 0) return;
  const spelling = new Map<string, string>();
  for (const d of await select<{ school_id: string; name: string }>('SELECT school_id, name FROM designations')) {
    spelling.set(`${d.school_id}\u0000${d.name.toLowerCase()}`, d.name);
  }
  const now = new Date();
  for (const { school_id: schoolId, designation } of held) {
    const trimmed = designation.trim();
    const key = `${schoolId}\u0000${trimmed.toLowerCase()}`;
    if (trimmed && !spelling.has(key)) {
      await sequelize.query('INSERT INTO designations (school_id, name, rbac, created_at, updated_at) VALUES (:school, :name, :rbac, :now, :now)', {
        replacements: { school: schoolId, name: trimmed, rbac: '{}', now },
      });
      spelling.set(key, trimmed);
    }
    // Run for a name already spelt right too: MySQL's DISTINCT gave one row for the name in every case.
    const stored = trimmed ? spelling.get(key)! : null;
    await sequelize.query('UPDATE staff SET designation = :stored WHERE school_id = :school AND designation = :designation', {
      replacements: { stored, school: schoolId, designation },
    });
  }
}

/** Data only: the designations it made may have been given permissions since, and are kept. */
export async function down(): Promise<void> {}
