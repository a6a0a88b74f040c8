import 'dotenv/config';
import { CommanderError } from 'commander';
import { buildProgram } from './program.js';
import { EXIT } from './runtime.js';

async function main(): Promise<number> {
  try {
    await buildProgram().parseAsync(process.argv);
    return Number(process.exitCode ?? EXIT.ok);
  } catch (err) {
    // commander has printed its own message; help and version end well, any other parse failure is a usage error.
    if (err instanceof CommanderError) {
      if (err.exitCode === 0) return EXIT.ok;
      // --json promises an answer on stdout, a refusal of the command line's shape too.
      if (process.argv.includes('--json')) process.stdout.write(JSON.stringify({ error: { code: 'USAGE', message: err.message.replace(/^error: /, '') } }, null, 2) + '\n');
      return EXIT.usage;
    }
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    return EXIT.refused;
  }
}

// Exit explicitly: a prompt's or a driver's handle must not keep a finished command alive.
process.exit(await main());
