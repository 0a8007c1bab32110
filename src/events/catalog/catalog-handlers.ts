import type { CommandContext } from '../command-context.ts';
import { handleCommand, type WriteDeps } from '../command-handler.ts';
import { toProductFields, type CatalogImportItem } from './catalog-import.ts';
import { productStreamName } from './events.ts';
import { productDecider } from './product-decider.ts';

export type CatalogImportSummary = { created: number; updated: number; unchanged: number };

/**
 * Imports parsed catalog items, one command per SKU, in file order. The file schema refuses duplicate
 * SKUs; if items are passed here without it, a later row for a SKU is applied after the earlier one,
 * so the last wins. Every item of the batch is stamped with the same instant.
 */
export const catalogProducts = async (deps: WriteDeps, items: readonly CatalogImportItem[], context: CommandContext): Promise<CatalogImportSummary> => {
  const at = deps.clock.now().toISOString();
  const summary: CatalogImportSummary = { created: 0, updated: 0, unchanged: 0 };
  for (const item of items) {
    const product = toProductFields(item);
    const outcome = await handleCommand(deps, productStreamName(product.sku), productDecider, { type: 'CatalogProduct', product, at }, context);
    if (outcome.status === 'unchanged') summary.unchanged++;
    else if (outcome.status === 'accepted') {
      if (outcome.events.some((event) => event.type === 'ProductCatalogued')) summary.created++;
      else summary.updated++;
    } else throw new Error(`unreachable: catalog product ${product.sku} refused (${outcome.refusal.code})`);
  }
  return summary;
};
