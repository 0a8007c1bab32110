import type { Command } from 'commander';
import { z } from 'zod';
import { systemContext } from '../../events/command-context.ts';
import { eraseCustomerEverywhere } from '../../erasure/erase-customer-everywhere.ts';
import { CliError } from '../cli-error.ts';
import type { WithRuntime } from '../cli-runtime.ts';
import { examples } from '../help-examples.ts';
import { printLine } from '../output.ts';

const email = z.email().max(254);

/** `customer erase --email E`: the right to erasure, as POST /api/customers/erase does it. */
export const customerCommand = (program: Command, withRuntime: WithRuntime): void => {
  const customer = program
    .command('customer')
    .description("customers' rights over their personal data")
    .addHelpText('after', examples('customer erase --email manon.schmitt84@example.org'));
  customer
    .command('erase')
    .description(
      'erase a customer (GDPR art. 17): their key is deleted, so their names, e-mail, phones and addresses read as [erased] in the log, the read models and every document made afterwards; amounts, dates and products stay',
    )
    .requiredOption('--email <email>', "the customer's e-mail address (as on their orders, SAVs or leads)")
    .addHelpText('after', examples('customer erase --email manon.schmitt84@example.org'))
    .action((options: { email: string }) => {
      const parsed = email.safeParse(options.email.trim());
      if (!parsed.success) throw new CliError('--email: must be a valid e-mail address');
      return withRuntime(async (runtime) => {
        const report = await eraseCustomerEverywhere(runtime, parsed.data, systemContext());
        switch (report.status) {
          case 'unknown':
            throw new CliError('--email: no personal data is kept for this e-mail address (no order, SAV or lead names it)');
          case 'log_not_migrated':
            throw new CliError(
              `the log still holds events written before encryption (up to position ${report.legacyHead}, migrated up to ${report.migratedUpTo}): run \`events encrypt-personal-data\` first`,
            );
          case 'already_erased':
            await printLine(`Already erased on ${report.erasedAt}: nothing more to do.`);
            return;
          case 'erased':
            await printLine(
              `Erased on ${report.erasedAt}: ${report.sales} sale(s), ${report.savs} SAV(s), ${report.leads} lead(s); ${report.filesDeleted} file(s) deleted.`,
            );
            if (!report.readModelsScrubbed)
              await printLine('The read models will scrub their copies when the server next runs (it applies the erasure first).');
        }
      });
    });
};
