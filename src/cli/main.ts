import { Command, CommanderError } from 'commander';
import packageJson from '../../package.json' with { type: 'json' };
import { ConfigError } from '../config/config.ts';
import { StoreFailure } from '../config/store-failures.ts';
import { CheckFailed, CliError } from './cli-error.ts';
import { withRuntime } from './cli-runtime.ts';
import { actionTokenCommand } from './commands/action-token.ts';
import { catalogCommand } from './commands/catalog.ts';
import { customerCommand } from './commands/customer.ts';
import { demoCommand } from './commands/demo.ts';
import { auditCommand } from './commands/audit.ts';
import { eventsCommand } from './commands/events.ts';
import { ordersCommand } from './commands/orders.ts';
import { projectionsCommand } from './commands/projections.ts';
import { tokenCommand } from './commands/token.ts';
import { flushOutput, OutputClosed } from './output.ts';

/**
 * `npm run --silent cli -- <command>`: administration on the same DATA_DIR as the server, safe to use
 * while it runs (the event store takes writers from several processes; the server sees their events).
 * Every command and sub-command answers `--help`, with examples; a mistake in the input is one line
 * on stderr and exit 2, never a stack trace.
 */
const program = new Command('npm run --silent cli --')
  .description('Administration of the order and after-sales service, on the stores of DATA_DIR (safe beside a running server).')
  .version(packageJson.version, '-V, --version', 'the version of the service and its CLI')
  .helpCommand(true)
  // Set before the commands are added: each inherits them.
  .exitOverride()
  .configureOutput({
    // Commander's own input errors (unknown option, missing argument) on one line, with the way to help.
    outputError: (message, write) => write(`${message.trim().replace(/\s*\n\s*/g, ' ')} (see --help)\n`),
  })
  .showSuggestionAfterError(true);

tokenCommand(program, withRuntime);
actionTokenCommand(program, withRuntime);
catalogCommand(program, withRuntime);
ordersCommand(program, withRuntime);
demoCommand(program, withRuntime);
eventsCommand(program, withRuntime);
customerCommand(program, withRuntime);
projectionsCommand(program, withRuntime);
auditCommand(program);

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
