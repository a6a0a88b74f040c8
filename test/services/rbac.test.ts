import { describe, expect, it } from '@jest/globals';
import type { Principal } from '../../src/context.js';
import { hasPermission, operatorPrincipal, requirePermission } from '../../src/services/access/guards.js';
import { effectiveRbac, grants, parseRbac } from '../../src/services/access/rbac.js';

const staff = (rbac: Principal['rbac']): Principal => ({ type: 'staff', userId: 1, schoolId: 's', sessionId: 1, rbac });
const admin = (role: Principal['role']): Principal => ({ type: 'admin', userId: 1, schoolId: 's', sessionId: 1, role });

describe('the permission helper (feature.level)', () => {
  it('grants a level and every level below it: none < view < create < manage', () => {
    const rbac = { diary: 'create' } as const;
    expect([grants(rbac, 'diary.view'), grants(rbac, 'diary.create'), grants(rbac, 'diary.manage')]).toEqual([true, true, false]);
    expect(grants({ diary: 'none' }, 'diary.view')).toBe(false);
    expect(grants({}, 'attendance.view')).toBe(false);
    expect(grants(null, 'attendance.view')).toBe(false);
  });

  it("overlays the staff member's own rbac on the designation's, naming every feature", () => {
    expect(effectiveRbac({ attendance: 'manage', diary: 'create' }, { attendance: 'none', noticeboard: 'create' })).toEqual({
      activities: 'none', noticeboard: 'create', students: 'none', write_to: 'none', attendance: 'none', diary: 'create',
    });
    expect(effectiveRbac(null, null).diary).toBe('none');
  });

  it('lets school admins pass every staff permission check, and checks staff against their rbac', () => {
    const allFull = effectiveRbac({}, {});
    for (const role of ['super_admin', 'admin', 'platform_admin'] as const) expect(hasPermission(admin(role), 'write_to.manage')).toBe(true);
    expect(hasPermission(operatorPrincipal('s'), 'diary.manage')).toBe(true);
    expect(hasPermission(admin('it_contact'), 'noticeboard.view')).toBe(false);
    expect(hasPermission(staff({ ...allFull, noticeboard: 'create' }), 'noticeboard.create')).toBe(true);
    expect(hasPermission(staff({ ...allFull, noticeboard: 'view' }), 'noticeboard.create')).toBe(false);
    expect(hasPermission({ type: 'parent', userId: 1, schoolId: 's', sessionId: 1 }, 'activities.view')).toBe(false);
    expect(() => requirePermission(staff(allFull), 'attendance.manage')).toThrow(expect.objectContaining({ status: 403, code: 'FORBIDDEN' }));
  });

  it('refuses unknown features and levels with a 400 naming the field', () => {
    expect(parseRbac({ diary: 'view' })).toEqual({ diary: 'view' });
    expect(() => parseRbac({ library: 'view' })).toThrow(expect.objectContaining({ status: 400, details: [expect.objectContaining({ field: 'rbac.library' })] }));
    expect(() => parseRbac({ diary: 'owner' })).toThrow(expect.objectContaining({ status: 400 }));
    expect(() => parseRbac(['diary'])).toThrow(expect.objectContaining({ status: 400 }));
  });
});
