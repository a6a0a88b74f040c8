import type { Command } from 'commander';
import type { CommandModule } from '../../runtime.js';
import type { DbSeedFlags } from './seed.action.js';

export const dbSeed: CommandModule<DbSeedFlags> = {
  declaration: (group: Command) =>
    group
      .command('seed')
      .description('Seed a school\'s default grades and designations; --demo adds demo people and content (running twice is harmless)')
      .option('--school <school_id>', 'the school to seed (create it first with tenant create)')
      .option('--demo', 'add demo staff, students, parents, activities, notices, threads, comments and reactions'),
  load: () => import('./seed.action.js'),
};
