export const importKinds = ['students', 'staff', 'oneroster'] as const;
export type ImportKind = (typeof importKinds)[number];

export interface ImportError {
  /** The file of a OneRoster set the error is in (a CSV import has one file). */
  file?: string;
  /** The line of the file the row starts on; the header is line 1. */
  line: number;
  field: string;
  message: string;
}

/** What an import did, or (dry run) would do: rows read, and how many were created, updated or left as they were. */
export interface ImportReport {
  kind: ImportKind;
  dry_run: boolean;
  partial: boolean;
  rows: number;
  created: number;
  updated: number;
  unchanged: number;
  errors: ImportError[];
  /** Guardians met for the first time: each gets a parent account without a PIN and a set-up link by SMS. */
  guardians_created: number;
  /** The groups the file named that the school did not have: created (a dry run: that applying would create). */
  groups_created: number;
  /** Their names, sorted. */
  new_groups: string[];
  /** Whether anything was written (false for a dry run, and for an all-or-nothing file with errors). */
  applied: boolean;
}

export interface Counts {
  created: number;
  updated: number;
  unchanged: number;
  guardians_created: number;
  /** The names of the groups made (a dry run: that would be made). */
  new_groups: string[];
}

export const noCounts = (): Counts => ({ created: 0, updated: 0, unchanged: 0, guardians_created: 0, new_groups: [] });

export function addCounts(into: Counts, more: Counts): Counts {
  into.created += more.created;
  into.updated += more.updated;
  into.unchanged += more.unchanged;
  into.guardians_created += more.guardians_created;
  into.new_groups.push(...more.new_groups);
  return into;
}

/** The report's group fields from the counts: how many groups, and their names sorted. */
export const groupsReport = (counts: Counts) => ({
  groups_created: counts.new_groups.length,
  new_groups: [...counts.new_groups].sort((x, y) => x.localeCompare(y)),
});
