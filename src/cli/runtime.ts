import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { userInfo } from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import type { z } from 'zod';
import type { AppContext } from '../context.js';
import { AppError } from '../errors.js';
import { actingAs } from '../services/audit/context.js';

/*
 * The database, the services and inquirer are imported when a command runs, not when the program is
 * built: `--help` stays instant, and each command loads only what it uses (the push provider's
 * firebase-admin alone costs about a second).
 */

/** CONTRACT.md section 17: 0 success, 1 refused by a rule, 2 usage error. */
export const EXIT = { ok: 0, refused: 1, usage: 2 } as const;

/** A flag missing or malformed (or a bad setting): exit code 2, and the message names the flag. */
export class UsageError extends Error {}

/** The file `--out` names, opened for writing: one it cannot be (no such folder, a folder, no right to write) is a bad flag. */
export async function openOut(file: string): Promise<FileHandle> {
  try {
    return await open(file, 'w');
  } catch (err) {
    throw new UsageError(`Invalid --out: cannot write ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

/** Writes a whole document to the file `--out` names. */
export async function writeOut(file: string, text: string): Promise<void> {
  const handle = await openOut(file);
  try {
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
}

/** The operator declined a confirmation or interrupted a prompt: nothing was changed. */
export class Cancelled extends Error {}

/** No database where the configuration points: exit 1, naming where it looked and how to point elsewhere. */
export class MissingDatabase extends Error {
  constructor(file: string) {
    super(
      `No database at ${file}. Set DATA_DIR to the folder of the server's database (or DATABASE_URL for MySQL/MariaDB), ` +
      'or run "school-platform db migrate" with this DATA_DIR first to create it there.',
    );
  }
}

/** What an action hands back: `data` for `--json`, `lines` for a person; `refused` prints them all the same but exits 1. */
export interface Output {
  data: unknown;
  lines: string[];
  refused?: string;
  /** The result went to stdout as it was made (an export): nothing more is printed there. */
  streamed?: boolean;
}

export interface ValueSpec<T> {
  /** The flag that gives the value, named by the usage error when it is missing or malformed. */
  flag: string;
  /** The prompt's question on a terminal. */
  message: string;
  schema: z.ZodType<T>;
  secret?: boolean;
  choices?: readonly string[];
  default?: string;
}

/** The flags every command takes besides its own. */
export interface CommonFlags {
  json?: boolean;
  yes?: boolean;
}

/**
 * One run of one command: how to get values (flag, else a prompt on a terminal, else a usage
 * error), how to confirm, the shared context, and how to print the result or the failure.
 */
export class Cli {
  /** Prompts only on a terminal, and never with --yes: scripts fail fast instead of hanging. */
  readonly interactive: boolean;
  private ctx?: AppContext;

  constructor(readonly json: boolean, readonly yes: boolean) {
    this.interactive = !yes && Boolean(process.stdin.isTTY && process.stdout.isTTY);
  }

  /** A required value: the flag's, else asked on a terminal, else a usage error naming the flag. */
  async need<T>(raw: string | undefined, spec: ValueSpec<T>): Promise<T> {
    if (raw !== undefined) return this.check(raw, spec);
    if (!this.interactive) throw new UsageError(`Missing ${spec.flag}: ${spec.message.toLowerCase()}`);
    return this.check(await this.ask(spec), spec);
  }

  /** An optional value: checked when given. */
  optional<T>(raw: string | undefined, spec: Pick<ValueSpec<T>, 'flag' | 'schema'>): T | undefined {
    return raw === undefined ? undefined : this.check(raw, spec);
  }

  check<T>(raw: string, spec: Pick<ValueSpec<T>, 'flag' | 'schema'>): T {
    const parsed = spec.schema.safeParse(raw);
    if (!parsed.success) throw new UsageError(`Invalid ${spec.flag}: ${parsed.error.issues[0]?.message ?? 'bad value'}`);
    return parsed.data;
  }

  /** Asks on a terminal; the prompt re-asks until the value passes the flag's own check. */
  async ask(spec: Omit<ValueSpec<unknown>, 'flag'>): Promise<string> {
    const validate = (v: string) => {
      const r = spec.schema.safeParse(v);
      return r.success || (r.error.issues[0]?.message ?? 'bad value');
    };
    const name = 'value';
    const question = spec.choices
      ? { type: 'select' as const, name, message: spec.message, choices: spec.choices.map((c) => ({ name: c, value: c })), default: spec.default }
      : spec.secret
        ? { type: 'password' as const, name, message: spec.message, mask: '*', validate }
        : { type: 'input' as const, name, message: spec.message, default: spec.default, validate };
    return String((await this.prompt(question)).value ?? '');
  }

  /** Confirms a destructive command on a terminal unless --yes; scripts (no terminal) have named it explicitly. */
  async confirm(message: string): Promise<void> {
    if (this.yes || !this.interactive) return;
    const answer = await this.prompt({ type: 'confirm' as const, name: 'value', message, default: false });
    if (answer.value !== true) throw new Cancelled('Cancelled: nothing was changed');
  }

  private async prompt(question: object): Promise<Record<string, unknown>> {
    const { default: inquirer } = await import('inquirer');
    try {
      return (await inquirer.prompt(question as Parameters<typeof inquirer.prompt>[0])) as Record<string, unknown>;
    } catch (err) {
      if (err instanceof Error && err.name === 'ExitPromptError') throw new Cancelled('Cancelled: nothing was changed');
      throw err;
    }
  }

  /** The SQLite file this run created (only `db migrate` may). */
  createdDatabase?: string;

  /**
   * The same configuration and services as the server; logs go to stderr so that stdout stays the
   * result. Without DATABASE_URL the SQLite file in DATA_DIR must exist already, or the command is
   * refused having created nothing (no database, no DATA_DIR, no secret file): a school made in a
   * database the server never reads is worse than no school. `createDatabase` (db migrate) makes it.
   */
  async context(options: { migrate?: boolean; createDatabase?: boolean } = {}): Promise<AppContext> {
    if (this.ctx) return this.ctx;
    const [{ ConfigError, databaseLocation, loadConfig }, { createContext }, { destination, pino }] = await Promise.all([
      import('../config.js'), import('../bootstrap.js'), import('pino'),
    ]);
    const location = databaseLocation();
    if ('sqliteFile' in location && !existsSync(location.sqliteFile)) {
      if (!options.createDatabase) throw new MissingDatabase(location.sqliteFile);
      mkdirSync(path.dirname(location.sqliteFile), { recursive: true });
      this.createdDatabase = location.sqliteFile;
    }
    let config;
    try {
      config = loadConfig();
    } catch (err) {
      if (err instanceof ConfigError) throw new UsageError(err.message);
      throw err;
    }
    this.ctx = await createContext({ ...config, runJobs: false }, { ...options, redis: false });
    this.ctx.log = pino({ level: process.env.LOG_LEVEL ? config.logLevel : 'warn' }, destination(2));
    return this.ctx;
  }

  async close(): Promise<void> {
    const ctx = this.ctx;
    this.ctx = undefined;
    await ctx?.db.close();
  }

  print(out: Output): void {
    if (out.streamed) return;
    process.stdout.write(this.json ? JSON.stringify(out.data, null, 2) + '\n' : out.lines.join('\n') + '\n');
  }

  /** Prints a failure (the message on stderr; with --json also an error object on stdout) and gives its exit code. */
  fail(err: unknown): number {
    const code = exitCodeOf(err);
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`error: ${message}\n`);
    if (this.json) {
      const error = {
        code: err instanceof AppError ? err.code : err instanceof UsageError ? 'USAGE' : err instanceof Cancelled ? 'CANCELLED' : 'FAILED',
        message,
        ...(err instanceof AppError && err.details ? { details: err.details } : {}),
      };
      process.stdout.write(JSON.stringify({ error }, null, 2) + '\n');
    }
    return code;
  }
}

/** Flags are checked before any service runs, so what a service refuses (AppError) is a rule: exit 1. */
const exitCodeOf = (err: unknown): number => (err instanceof UsageError ? EXIT.usage : EXIT.refused);

export type Action<F> = (cli: Cli, flags: F & CommonFlags) => Promise<Output>;

export interface CommandModule<F> {
  /** Declares the command and its flags on its group. */
  declaration(group: Command): Command;
  /** Loads the action, which reads its values from the flags or the prompts and does the work through the services. */
  load(): Promise<{ action: Action<F> }>;
}

/** Adds a command to its group with the flags every command takes, and runs its action with a closing database. */
export function addCommand<F>(group: Command, module: CommandModule<F>): void {
  module
    .declaration(group)
    .option('--json', 'print a machine-readable result (JSON on stdout)')
    .option('-y, --yes', 'skip confirmations and never prompt (a missing value then fails)')
    .action(async (_options: unknown, command: Command) => {
      const flags = command.opts<F & CommonFlags>();
      const cli = new Cli(Boolean(flags.json), Boolean(flags.yes));
      try {
        const { action } = await module.load();
        const out = await actingAs({ door: 'cli', actorType: 'operator', actorName: operatorName() }, () => action(cli, flags));
        cli.print(out);
        if (out.refused) {
          process.stderr.write(`error: ${out.refused}\n`);
          process.exitCode = EXIT.refused;
        }
      } catch (err) {
        process.exitCode = cli.fail(err);
      } finally {
        await cli.close().catch(() => undefined);
      }
    });
}

/** The operator as the audit trail names them: the system account running the command. */
function operatorName(): string | null {
  try {
    return userInfo().username;
  } catch {
    return null;
  }
}

/** A first password for an admin created without one: 16 URL-safe characters. */
export const generatePassword = () => randomBytes(12).toString('base64url');

/** Rows as aligned columns for a person to read. */
export function table(rows: Array<Record<string, unknown>>, columns: string[]): string[] {
  const cells = rows.map((r) => columns.map((c) => (r[c] === null || r[c] === undefined ? '' : String(r[c]))));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]!.length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(columns), ...cells.map(line)];
}
