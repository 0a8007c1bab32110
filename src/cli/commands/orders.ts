import type { Command } from 'commander';
import { systemContext } from '../../events/command-context.ts';
import { importSale } from '../../events/sales/import-sale.ts';
import { orderImportFile, orderImportPayload } from '../../contracts/order-import.ts';
import { unknownFields } from '../../contracts/unknown-fields.ts';
import type { WithRuntime } from '../cli-runtime.ts';
import { examples } from '../help-examples.ts';
import { printLine } from '../output.ts';
import { readJsonValue, validateJsonFile } from '../read-json-file.ts';

/**
 * `orders import <file>`: the same code path as the REST import (fields beyond the contract kept for
 * audit); an increment_id seen before changes nothing.
 */
export const ordersCommand = (program: Command, withRuntime: WithRuntime): void => {
  const orders = program
    .command('orders')
    .description('orders from a marketplace file')
    .addHelpText('after', examples('orders import orders.json'));
  orders
    .command('import')
    .description('import one order or an array (per shared/contracts/order-import.schema.json); an increment_id seen before changes nothing')
    .argument('<file.json>', 'one order, or a JSON array of orders')
    .addHelpText('after', examples('orders import orders.json'))
    .action((file: string) =>
      withRuntime(async (runtime) => {
        const json = await readJsonValue(file);
        const imported = validateJsonFile(file, json, orderImportFile);
        const sent: unknown[] = Array.isArray(json) ? json : [json];
        let created = 0;
        for (const [index, order] of imported.entries()) {
          const result = await importSale(runtime.salesDeps, order, systemContext(), unknownFields(orderImportPayload, sent[index]));
          if (result.created) created++;
          await printLine(
            `${result.created ? 'imported' : 'already imported'} ${result.incrementId}: sale ${result.saleId}, products ${result.saleProductIds.join(',')}`,
          );
        }
        await printLine(`${imported.length} order(s): ${created} imported, ${imported.length - created} already there`);
      }),
    );
};
