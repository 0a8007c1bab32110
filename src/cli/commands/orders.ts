import { systemContext } from '../../events/command-context.ts';
import { importSale, type ImportSaleResult } from '../../events/sales/import-sale.ts';
import { orderImportFile, orderImportPayload } from '../../contracts/order-import.ts';
import { unknownFields } from '../../contracts/unknown-fields.ts';
import { createPerKeyQueue } from '../../labels/per-key-queue.ts';
import type { Runtime } from '../../runtime.ts';
import { CliError } from '../cli-error.ts';
import { readJsonValue, validateJsonFile } from '../read-json-file.ts';
import { printLine } from '../output.ts';

/**
 * Orders imported at once: the embedded store commits the appends that arrive together in one
 * transaction (one fsync for the lot: group commit), so a file of many orders is written in a few
 * commits rather than one per order. Each order is still its own append, all-or-nothing.
 */
const concurrentImports = 64;

/**
 * `orders import <file>`: the same code path as the REST import (fields beyond the contract kept for
 * audit); an increment_id seen before changes nothing. An array is imported `concurrentImports` orders
 * at a time; the same increment_id twice in a file is imported in file order (the first one counts);
 * the results are printed in file order.
 */
export const ordersCommand = async (runtime: Runtime, argv: string[]): Promise<void> => {
  const [action, file] = argv;
  if (action !== 'import' || !file) throw new CliError('usage: orders import <file.json>');
  const json = await readJsonValue(file);
  const orders = validateJsonFile(file, json, orderImportFile);
  const sent: unknown[] = Array.isArray(json) ? json : [json];
  const sameOrder = createPerKeyQueue();
  const results: ImportSaleResult[] = new Array(orders.length);
  let next = 0;
  const importNext = async (): Promise<void> => {
    while (next < orders.length) {
      const index = next++;
      const order = orders[index]!;
      results[index] = await sameOrder(order.increment_id, () =>
        importSale(runtime.salesDeps, order, systemContext(), unknownFields(orderImportPayload, sent[index])),
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrentImports, orders.length) }, importNext));

  for (const result of results) {
    await printLine(
      `${result.created ? 'imported' : 'already imported'} ${result.incrementId}: sale ${result.saleId}, products ${result.saleProductIds.join(',')}`,
    );
  }
  const created = results.filter((result) => result.created).length;
  await printLine(`${orders.length} order(s): ${created} imported, ${orders.length - created} already there`);
};
