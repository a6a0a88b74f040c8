import type { Command } from 'commander';
import type { ImportKind } from '../../../services/imports/imports.js';
import type { CommandModule } from '../../runtime.js';
import type { ImportFlags } from './import.action.js';

const what: Record<ImportKind, string> = {
  students: "the school's students CSV (roll_no, student_full_name, grade, guardians, addresses, groups)",
  staff: "the school's staff CSV (name, designation, phone_no, email, assigned_roll_nos)",
  oneroster: 'a OneRoster 1.1 or 1.2 bulk set, as a .zip or a folder of its CSV files',
};

/** `import students|staff|oneroster`: one command a kind, one action for all. */
export const importCommand = (kind: ImportKind): CommandModule<ImportFlags> => ({
  declaration: (group: Command) =>
    group
      .command(kind)
      .description(`Import ${what[kind]}: rows are matched, never duplicated; all or nothing unless --partial`)
      .option('--school <school_id>', 'the school to import into')
      .option('--file <path>', kind === 'oneroster' ? 'the .zip, or the folder holding the set\'s CSV files' : 'the CSV file')
      .option('--dry-run', 'check the file and count what it would do, writing nothing')
      .option('--partial', 'apply the valid rows and report the others'),
  load: async () => {
    const { importAction } = await import('./import.action.js');
    return { action: importAction(kind) };
  },
});
