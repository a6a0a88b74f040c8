import { describe, expect, it } from '@jest/globals';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/program.js';

/** Every command of CONTRACT.md section 17, as `group command`. */
const contractCommands = [
  'tenant create', 'tenant list', 'tenant update', 'tenant suspend', 'tenant resume', 'admin create', 'pin reset', 'sessions purge', 'sessions revoke',
  'push test', 'notify test', 'db migrate', 'db seed', 'import students', 'import staff', 'import oneroster', 'group add-members', 'remind',
  'audit export', 'data export', 'data erase',
  'webhook add', 'webhook list', 'webhook remove', 'form results',
];

const leaves = (program: Command) =>
  program.commands.flatMap((group) =>
    group.commands.length ? group.commands.map((command) => ({ path: `${group.name()} ${command.name()}`, command })) : [{ path: group.name(), command: group }]);

describe('the program', () => {
  it('has every command of the contract, each with a description, --help, --json and --yes', () => {
    const found = leaves(buildProgram());
    expect(found.map((c) => c.path).sort()).toEqual([...contractCommands].sort());
    for (const { path, command } of found) {
      const help = command.helpInformation();
      expect({ path, described: command.description().length > 0 }).toEqual({ path, described: true });
      for (const flag of ['--help', '--json', '--yes']) expect({ path, flag, shown: help.includes(flag) }).toEqual({ path, flag, shown: true });
    }
  });

  it('declares the flags the contract names for each command', () => {
    const flags = Object.fromEntries(leaves(buildProgram()).map(({ path, command }) => [path, command.options.map((o) => o.long)]));
    expect(flags['tenant create']).toEqual(expect.arrayContaining(['--id', '--name', '--admin-email', '--admin-name', '--admin-password']));
    expect(flags['admin create']).toEqual(expect.arrayContaining(['--email', '--name', '--password', '--role', '--school']));
    expect(flags['pin reset']).toEqual(expect.arrayContaining(['--school', '--type', '--phone', '--pin']));
    expect(flags['sessions purge']).toEqual(expect.arrayContaining(['--older-than-days']));
    expect(flags['sessions revoke']).toEqual(expect.arrayContaining(['--school', '--type', '--user-id', '--all']));
    expect(flags['push test']).toEqual(expect.arrayContaining(['--school', '--token', '--parent-id', '--staff-id', '--title', '--body']));
    expect(flags['notify test']).toEqual(expect.arrayContaining(['--school', '--channel', '--to']));
    expect(flags['db seed']).toEqual(expect.arrayContaining(['--school', '--demo']));
    expect(flags['webhook add']).toEqual(expect.arrayContaining(['--school', '--url', '--events']));
    expect(flags['webhook list']).toEqual(expect.arrayContaining(['--school']));
    expect(flags['webhook remove']).toEqual(expect.arrayContaining(['--school', '--id']));
    expect(flags['form results']).toEqual(expect.arrayContaining(['--school', '--form', '--format', '--out']));
  });
});
