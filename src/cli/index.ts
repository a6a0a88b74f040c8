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
    if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    return EXIT.refused;
  }
}

// Exit explicitly: a prompt's or a driver's handle must not keep a finished command alive.
process.exit(await main());
