import { ConfigError, loadConfig } from '../config/config.ts';
import { createLogger } from '../logger.ts';
import { openRuntime, type Runtime } from '../runtime.ts';
import { CliError } from './cli-error.ts';
import { actionTokenCommand } from './commands/action-token.ts';
import { catalogCommand } from './commands/catalog.ts';
import { demoCommand } from './commands/demo.ts';
import { eventsCommand } from './commands/events.ts';
import { ordersCommand } from './commands/orders.ts';
import { projectionsCommand } from './commands/projections.ts';
import { tokenCommand } from './commands/token.ts';
import { flushOutput, OutputClosed } from './output.ts';

/**
 * `npm run --silent cli -- <command>`: administration on the same DATA_DIR as the server, safe to use
 * while it runs (the event store takes writers from several processes; the server sees their events).
 */
const commands: Record<string, { run: (runtime: Runtime, argv: string[]) => Promise<void>; help: string }> = {
  token: { run: tokenCommand, help: 'token issue --group <group> [--label TEXT] | token list | token revoke <id>' },
  'action-token': { run: actionTokenCommand, help: "action-token <invoice|cancel|address|rdv|delivery-rdv> --sale <id> [--products <id,...>] [--data '<json>'] [--ttl <seconds>]" },
  catalog: { run: catalogCommand, help: 'catalog import <file.json>' },
  orders: { run: ordersCommand, help: 'orders import <file.json>' },
  demo: { run: demoCommand, help: 'demo seed [--orders N] [--seed S]' },
  events: { run: eventsCommand, help: 'events replay [--sale ID | --stream NAME] [--from POSITION]' },
  projections: { run: projectionsCommand, help: 'projections rebuild [--projection NAME]... | projections verify | projections status' },
};

const usage = (): string => `usage: npm run --silent cli -- <command>\n${Object.values(commands).map((command) => `  ${command.help}`).join('\n')}\n`;

const main = async (argv: string[]): Promise<number> => {
  const [name, ...rest] = argv;
  const command = name ? commands[name] : undefined;
  if (!command) {
    process.stderr.write(name && name !== 'help' && name !== '--help' ? `unknown command: ${name}\n${usage()}` : usage());
    return name && name !== 'help' && name !== '--help' ? 2 : 0;
  }
  const config = loadConfig();
  // Logs go to stderr: stdout carries the command's output (a token on its last line, JSON lines).
  const runtime = await openRuntime(config, createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, 'stderr'), {
    readYourWrites: false,
    // Larger ID blocks for bulk commands; IDs left in a block when the command ends are never reused.
    idBlockSize: 1000,
  });
  try {
    await command.run(runtime, rest);
    return 0;
  } finally {
    await runtime.close();
  }
};

/** Exits once the output is handed over: a pipe still holding lines would lose them to process.exit. */
const exit = async (code: number): Promise<never> => {
  await flushOutput();
  process.exit(code);
};

main(process.argv.slice(2)).then(
  (code) => exit(code),
  async (error: unknown) => {
    // The reader stopped early (`| head`): what it wanted was printed.
    if (error instanceof OutputClosed) return exit(0);
    if (error instanceof CliError || error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return exit(2);
    }
    process.stderr.write(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return exit(1);
  },
);
