import { tokenGroup } from '../../events/access/events.ts';
import { productsCollection, type ProductDocument } from '../../projections/catalog/product-document.ts';
import { salesCollection, type SaleDocument } from '../../projections/sales/sale-document.ts';
import { listOpenSupplierLines } from '../../projections/supplier-lines/queries.ts';
import type { Runtime } from '../../runtime.ts';

const cli = 'npm run --silent cli --';

/**
 * What `demo seed` suggests trying on the data it made: open lines of each supplier (to acknowledge
 * and ship), an order with its customer's e-mail, a SKU, and the commands that issue the tokens.
 * Read from the read models, so that they name what is really there.
 */
export const tryNext = async (runtime: Pick<Runtime, 'readStore' | 'config'>): Promise<string[]> => {
  const lines = ['', 'What to try next (start the server with `npm start`):'];
  for (const supplier of ['supplier-a', 'supplier-b'] as const) {
    const open = await listOpenSupplierLines(runtime.readStore, { supplier, limit: 3, fields: ['_id'] });
    lines.push(`  open lines of ${supplier}: ${open.length === 0 ? 'none' : open.map((line) => line._id).join(', ')}`);
  }
  const [sale] = await runtime.readStore
    .collection<SaleDocument>(salesCollection)
    .find({}, { sort: { _id: -1 }, limit: 1 })
    .toArray();
  if (sale) lines.push(`  an order: ${sale.incrementId} (sale ${sale._id}), customer ${sale.customer.email}`);
  const [product] = await runtime.readStore
    .collection<ProductDocument>(productsCollection)
    .find({}, { sort: { _id: 1 }, limit: 1 })
    .toArray();
  if (product) lines.push(`  a SKU: ${product._id}`);
  lines.push('  the tokens (each printed alone on the last line):');
  for (const group of tokenGroup.options) lines.push(`    ${cli} token issue --group ${group}`);
  if (sale) {
    lines.push(`  then, e.g.: CORE=$(${cli} token issue --group core | tail -1)`);
    lines.push(`             curl -s -H "Authorization: Bearer $CORE" ${runtime.config.baseUrl}/api/get-sale-info-by-increment-id/${sale.incrementId}`);
  }
  return lines;
};
