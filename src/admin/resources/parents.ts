import type { ResourceWithOptions } from 'adminjs';
import type { AppContext } from '../../context.js';
import { Parent } from '../../models/index.js';
import { getParent, resetParentPinById, updateParent } from '../../services/parents/parents.js';
import { emailVerified } from '../../services/parents/profile.js';
import { roleAccess } from '../access.js';
import { principalFor } from '../auth.js';
import { studentStatusLabels, yesNo } from '../labels/codes.js';
import { labelOf } from '../labels/words.js';
import type { Enricher } from '../scoped-resource.js';
import { defineResource } from './define.js';
import { menu } from '../labels/menu.js';
import { pinResetAction } from './pin-reset-action.js';
import { coded } from './properties.js';
import { testPushAction } from './test-push-action.js';

const shownOnPage = { list: false, filter: false, show: true, edit: false };

export function parentsResource(ctx: AppContext): ResourceWithOptions {
  /** On a parent's page: their children (each linked) and whether they have a PIN yet, as the office's parent service reads them. */
  const family: Enricher = async (rows, admin, detail) => {
    if (!detail) return;
    for (const row of rows) {
      const parent = await getParent(ctx, principalFor(admin, String(row.school_id)), Number(row.id));
      row.children = parent.children.map((c) => ({ ...c, status_label: labelOf(studentStatusLabels, c.status) }));
      row.has_pin = parent.has_pin ? 1 : 0;
    }
  };
  /** Whether the address may be sent news: one the parent gave in the app stays unverified until they open its link. */
  const verified: Enricher = async (rows) => {
    for (const row of rows) {
      row.email_verified = emailVerified({ email: (row.email as string | null) ?? null, unverified_email: (row.unverified_email as string | null) ?? null }) ? 1 : 0;
      delete row.unverified_email;
    }
  };
  return defineResource(ctx, {
    model: Parent,
    scope: {
      schoolColumn: 'school_id', secret: ['pin_hash', 'pin_setup_token_hash'], quickSearch: ['father_name', 'mother_name', 'phone_no', 'email'], enrich: [family, verified],
    },
    access: roleAccess.school,
    options: {
      navigation: menu.people,
      sort: { sortBy: 'father_name', direction: 'asc' },
      listProperties: ['father_name', 'mother_name', 'phone_no', 'email'],
      filterProperties: ['father_name', 'mother_name', 'phone_no', 'email', 'created_at'],
      showProperties: [
        'school_id', 'id', 'father_name', 'mother_name', 'phone_no', 'email', 'email_verified', 'children', 'has_pin', 'pin_setup_expires_at', 'created_at', 'updated_at',
      ],
      editProperties: ['father_name', 'mother_name', 'phone_no', 'email'],
      properties: {
        father_name: { isTitle: true },
        phone_no: { description: "The parent's sign-in: their children's phone follows a new one; their PIN stays" },
        children: { type: 'mixed', components: { show: 'ChildrenList' }, isVisible: shownOnPage },
        has_pin: coded([1, 0], yesNo, { type: 'string', isVisible: shownOnPage }),
        email: { description: 'Set here, the address counts as verified: news goes to it when the parent has no app' },
        email_verified: coded([1, 0], yesNo, { type: 'string', isVisible: shownOnPage }),
        unverified_email: { isVisible: false },
      },
    },
    services: {
      fields: { father_name: 'nullableText', mother_name: 'nullableText', phone_no: 'text', email: 'nullableText' },
      update: (c, p, i, changes) => updateParent(c, p, i, changes as never),
    },
    extraActions: {
      resetPin: pinResetAction(roleAccess.school, {
        owner: (r) => String(r.params.father_name ?? r.params.mother_name ?? r.params.phone_no),
        intro: 'Set a new PIN for this parent. Every device they are signed in on is signed out at once, and a lock-out on their phone is lifted.',
        reset: (p, r, pin) => resetParentPinById(ctx, p, Number(r.id()), pin),
      }),
      testPush: testPushAction(ctx, roleAccess.school, (r) => ({ parent_id: Number(r.id()) })),
    },
  });
}
