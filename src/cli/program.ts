import { Command } from 'commander';
import packageJson from '../../package.json' with { type: 'json' };
import type { WithRuntime } from './cli-runtime.ts';
import { actionTokenCommand } from './commands/action-token.ts';
import { auditCommand } from './commands/audit.ts';
import { catalogCommand } from './commands/catalog.ts';
import { customerCommand } from './commands/customer.ts';
import { demoCommand } from './commands/demo.ts';
import { eventsCommand } from './commands/events.ts';
import { ordersCommand } from './commands/orders.ts';
import { projectionsCommand } from './commands/projections.ts';
import { tokenCommand } from './commands/token.ts';
import { webhooksCommand } from './commands/webhooks.ts';

/** Where commander writes help and its own errors (stdout and stderr unless given). */
export type CliOutput = { writeOut: (text: string) => void; writeErr: (text: string) => void };

/**
 * The CLI's commands, their options and help texts (commander), each command's work run on the
 * runtime `withRuntime` opens. A new program each call: commander keeps the state of a parse.
 */
export const cliProgram = (withRuntime: WithRuntime, output?: CliOutput): Command => {
  const program = new Command('npm run --silent cli --')
    .description('Administration of the order and after-sales service, on the stores of DATA_DIR (safe beside a running server).')
    .version(packageJson.version, '-V, --version', 'the version of the service and its CLI')
    .helpCommand(true)
    // Set before the commands are added: each inherits them.
    .exitOverride()
    .configureOutput({
      ...output,
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
  webhooksCommand(program, withRuntime);
  auditCommand(program);
  return program;
};
