import type { PropertyOptions } from 'adminjs';
import { choices } from '../labels/words.js';

/** Shown to the operator only (the PlatformOnly component); a school admin's records are all of its school. */
export const schoolColumn: PropertyOptions = {
  isVisible: { list: false, filter: true, show: true, edit: true },
  components: { show: 'PlatformOnly', filter: 'PlatformOnly', edit: 'PlatformOnly' },
  position: 0,
};

/** Listed, filtered and shown, never edited. */
export const readOnly: PropertyOptions = { isVisible: { list: true, filter: true, show: true, edit: false } };

/** Filtered and shown, never listed or edited: the default of created_at and updated_at. */
export const shownOnly: PropertyOptions = { isVisible: { list: false, filter: true, show: true, edit: false } };

/** Long text: a text area on the form and the page, kept out of the list. */
export const textarea: PropertyOptions = { type: 'textarea', isVisible: { list: false, filter: false, show: true, edit: true } };

/** A soft-delete column, as a filter a super_admin uses to find deleted records. */
export const deletedFlag: PropertyOptions = {
  availableValues: choices([0, 1], { 0: 'No', 1: 'Yes (deleted)' }),
  isVisible: { list: false, filter: true, show: true, edit: false },
};

/** A stored code shown, filtered and picked by its label (a status, a kind), never as the code. */
export const coded = (values: readonly (string | number)[], labels: Record<string, string>, extra: PropertyOptions = {}): PropertyOptions => ({
  availableValues: choices(values, labels), ...extra,
});

/** A status: as coded, shown as a badge coloured by meaning; `tones` colours values whose word does not say it (the staff's 1 and 0). */
export const status = (values: readonly (string | number)[], labels: Record<string, string>, tones?: Record<string, 'green' | 'amber' | 'red' | 'grey'>): PropertyOptions =>
  coded(values, labels, tones ? { custom: { tones } } : {});

/** What a row points at, by name and linked to it (the value a linkedNames enricher puts there); its id stays a filter. */
export const named = (extra: PropertyOptions = {}): PropertyOptions => ({
  type: 'string', isSortable: false, components: { list: 'LinkedName', show: 'LinkedName' }, isVisible: { list: true, filter: false, show: true, edit: false }, ...extra,
});

/** A column that points at a record of another resource. */
export const ref = (resource: string, extra: PropertyOptions = {}): PropertyOptions => ({ reference: resource, ...extra });
