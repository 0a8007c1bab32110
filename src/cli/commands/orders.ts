import type { Command } from 'commander';
import { systemContext } from '../../events/command-context.ts';
import { importSale, onceEachSku, type ImportSaleResult } from '../../events/sales/import-sale.ts';
import { orderImportJsonSchema } from '../../contracts/json-schemas.ts';
import { orderImportFile, orderImportPayload } from '../../contracts/order-import.ts';
import { unknownFields } from '../../contracts/unknown-fields.ts';
import type { WithRuntime } from '../cli-runtime.ts';
import { examples } from '../help-examples.ts';
import { createPerKeyQueue } from '../../concurrency/per-key-queue.ts';
import { printLine } from '../output.ts';
import { followWhileWriting, readModelsCaughtUp } from '../read-models-thread.ts';
import { readJsonValue, validateJsonFile } from '../read-json-file.ts';

/**
 * Orders imported at once: the embedded store commits the appends that arrive together in one
 * transaction (one fsync for the lot: group commit), so a file of many orders is written in a few
 * commits rather than one per order. Each order is still its own append, all-or-nothing.
 */
const concurrentImports = 64;

/**
 * `orders schema`: the JSON Schema of one order, generated from the schema that validates it.
 * `orders import <file>`: the same code path as the REST import (fields beyond the contract kept for
 * audit); an increment_id seen before changes nothing. An array is imported `concurrentImports` orders
 * at a time; the same increment_id twice in a file is imported in file order (the first one counts);
 * the results are printed in file order. The catalog is read once per SKU for the whole run (onceEachSku).
 * It ends once the read models include the orders (read-models-thread.ts).
 */
export const ordersCommand = (program: Command, withRuntime: WithRuntime): void => {
  const orders = program
    .command('orders')
    .description('orders from a marketplace file')
    .addHelpText('after', examples('orders import docs/examples/order.json', 'orders schema > order-import.schema.json'));
  orders
    .command('import')
    .description('import one order or an array (each as `orders schema` describes it); an increment_id seen before changes nothing')
    .argument('<file.json>', 'one order, or a JSON array of orders')
    .addHelpText('after', examples('orders import docs/examples/order.json'))
    .action((file: string) =>
      withRuntime(async (runtime) => {
        const json = await readJsonValue(file);
        const imported = validateJsonFile(file, json, orderImportFile);
        const sent: unknown[] = Array.isArray(json) ? json : [json];
        const sameOrder = createPerKeyQueue();
        const deps = { ...runtime.salesDeps, findProduct: onceEachSku(runtime.salesDeps.findProduct) };
        const results: ImportSaleResult[] = new Array(imported.length);
        let next = 0;
        const importNext = async (): Promise<void> => {
          while (next < imported.length) {
            const index = next++;
            const order = imported[index]!;
            results[index] = await sameOrder(order.increment_id, () =>
              importSale(deps, order, systemContext(), unknownFields(orderImportPayload, sent[index])),
            );
          }
        };
        const follower = followWhileWriting(imported.length);
        try {
          await Promise.all(Array.from({ length: Math.min(concurrentImports, imported.length) }, importNext));
        } finally {
          await follower?.stop();
        }
        await readModelsCaughtUp(runtime);

        for (const result of results) {
          await printLine(
            `${result.created ? 'imported' : 'already imported'} ${result.incrementId}: sale ${result.saleId}, products ${result.saleProductIds.join(',')}`,
          );
        }
        const created = results.filter((result) => result.created).length;
        await printLine(`${imported.length} order(s): ${created} imported, ${imported.length - created} already there`);
      }),
    );
  orders
    .command('schema')
    .description('print the JSON Schema (draft 2020-12) of one order, as `orders import` and the REST import take it')
    .addHelpText('after', examples('orders schema > order-import.schema.json'))
    .action(() => printLine(JSON.stringify(orderImportJsonSchema(), null, 2)));
};
