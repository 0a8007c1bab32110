import { CommanderError } from 'commander';
import { ConfigError } from '../config/config.ts';
import { StoreFailure } from '../config/store-failures.ts';
import { CheckFailed, CliError } from './cli-error.ts';
import { withRuntime } from './cli-runtime.ts';
import { flushOutput, OutputClosed } from './output.ts';
import { cliProgram } from './program.ts';

/**
 * `npm run --silent cli -- <command>`: administration on the same DATA_DIR as the server, safe to use
 * while it runs (the event store takes writers from several processes; the server sees their events).
 * Every command and sub-command answers `--help`, with examples; a mistake in the input is one line
 * on stderr and exit 2, never a stack trace.
 */
const program = cliProgram(withRuntime);

/** Exits once the output is handed over: a pipe still holding lines would lose them to process.exit. */
const exit = async (code: number): Promise<never> => {
  await flushOutput();
  process.exit(code);
};

const main = async (argv: string[]): Promise<number> => {
  // Bare, the CLI shows what it can do.
  if (argv.length === 0) {
    program.outputHelp();
    return 0;
  }
  await program.parseAsync(argv, { from: 'user' });
  return 0;
};

main(process.argv.slice(2)).then(
  (code) => exit(code),
  async (error: unknown) => {
    // The reader stopped early (`| head`): what it wanted was printed.
    if (error instanceof OutputClosed) return exit(0);
    // --help (and a bare group such as `token`, which shows its help): printed already.
    if (error instanceof CommanderError) return exit(error.exitCode === 0 ? 0 : 2);
    if (error instanceof CliError || error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return exit(2);
    }
    if (error instanceof StoreFailure) {
      process.stderr.write(`error: ${error.message}\n`);
      return exit(1);
    }
    if (error instanceof CheckFailed) {
      process.stderr.write(`${error.message}\n`);
      return exit(1);
    }
    process.stderr.write(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return exit(1);
  },
);
