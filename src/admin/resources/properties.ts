import type { PropertyOptions } from 'adminjs';

/** A list's values for a select and a filter, each with its label (by default the value in words). */
export const choices = (values: readonly (string | number)[], labels: Record<string, string> = {}) =>
  values.map((v) => ({ value: String(v), label: labels[String(v)] ?? String(v).replace(/_/g, ' ') }));

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

/** A column that points at a record of another resource. */
export const ref = (resource: string, extra: PropertyOptions = {}): PropertyOptions => ({ reference: resource, ...extra });
