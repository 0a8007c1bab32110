import { systemContext } from '../../events/command-context.ts';
import { importSale } from '../../events/sales/import-sale.ts';
import { orderImportFile, orderImportPayload } from '../../contracts/order-import.ts';
import { unknownFields } from '../../contracts/unknown-fields.ts';
import type { Runtime } from '../../runtime.ts';
import { CliError } from '../cli-error.ts';
import { readJsonValue, validateJsonFile } from '../read-json-file.ts';
import { printLine } from '../output.ts';

/**
 * `orders import <file>`: the same code path as the REST import (fields beyond the contract kept for
 * audit); an increment_id seen before changes nothing.
 */
export const ordersCommand = async (runtime: Runtime, argv: string[]): Promise<void> => {
  const [action, file] = argv;
  if (action !== 'import' || !file) throw new CliError('usage: orders import <file.json>');
  const json = await readJsonValue(file);
  const orders = validateJsonFile(file, json, orderImportFile);
  const sent: unknown[] = Array.isArray(json) ? json : [json];
  let created = 0;
  for (const [index, order] of orders.entries()) {
    const result = await importSale(runtime.salesDeps, order, systemContext(), unknownFields(orderImportPayload, sent[index]));
    if (result.created) created++;
    await printLine(
      `${result.created ? 'imported' : 'already imported'} ${result.incrementId}: sale ${result.saleId}, products ${result.saleProductIds.join(',')}`,
    );
  }
  await printLine(`${orders.length} order(s): ${created} imported, ${orders.length - created} already there`);
};
