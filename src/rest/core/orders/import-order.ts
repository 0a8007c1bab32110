import type { RouterMiddleware } from '@koa/router';
import { orderImportBody, orderImportPayload } from '../../../contracts/order-import.ts';
import { unknownFields } from '../../../contracts/unknown-fields.ts';
import { importSale, type FindProduct } from '../../../events/sales/import-sale.ts';
import { serviceOrderId } from '../../../events/sales/service-order-id.ts';
import type { Runtime } from '../../../runtime.ts';
import { parseInput } from '../../parse-input.ts';
import { importDifferences, recordedImport } from './import-conflict.ts';
import { invalidRequest, orderConflict } from './order-errors.ts';
import { noteWritten } from '../../../http/read-your-writes.ts';

/**
 * POST /api/api-add-new-order-api-shopping: imports one order (order-import contract). 201 when it is
 * recorded (one append); its supplier lines exist at once, their labels are rendered in the background
 * (labels/label-backlog.ts follows the imports in the log), never awaited here.
 * The same order sent again changes nothing and answers the recorded sale with 200; the same increment
 * ID with other content is a 409 naming the differing fields. A SKU the catalog does not know is
 * accepted: the order is a sale the platform already made, and the line keeps the order's own data
 * (shipped from own stock unless the line names a supplier). Fields beyond the contract are accepted
 * and recorded with the order (SaleImported.unknownFields), never acted on; a re-sent order whose only
 * changes are in those fields is the same order (200, the first recording kept).
 */
export const importOrder =
  (runtime: Runtime): RouterMiddleware =>
  async (ctx) => {
    const order = parseInput(orderImportBody, ctx.request.body, invalidRequest);
    const uncatalogued: string[] = [];
    const findProduct: FindProduct = async (sku) => {
      const entry = await runtime.salesDeps.findProduct(sku);
      if (entry === null) uncatalogued.push(sku);
      return entry;
    };

    const extra = unknownFields(orderImportPayload, ctx.request.body);
    const result = await importSale({ ...runtime.salesDeps, findProduct }, order, ctx.state.commandContext, extra);
    noteWritten(ctx.state, result.written);
    const recorded = await recordedImport(runtime.eventStore, result.incrementId);
    if (!recorded) throw new Error(`Order ${result.incrementId} answered as imported, yet its stream records no import`);

    if (result.created) {
      if (uncatalogued.length > 0) {
        runtime.log.warn({ incrementId: result.incrementId, skus: uncatalogued }, 'order imported with SKUs unknown to the catalog');
      }
    } else {
      const differences = importDifferences(order, recorded);
      if (differences.length > 0) throw orderConflict(result, differences);
    }

    ctx.status = result.created ? 201 : 200;
    if (result.created) ctx.set('Location', `/api/sale/${result.saleId}`);
    ctx.body = {
      success: true,
      created: result.created,
      message: result.created ? 'Order imported' : 'Order already imported; nothing was changed',
      sale_id: result.saleId,
      increment_id: result.incrementId,
      sale_product_ids: result.saleProductIds,
      supplier_lines: recorded.products.flatMap((product) =>
        product.supplier === null
          ? []
          : [
              {
                sale_product_id: product.saleProductId,
                service_order_id: serviceOrderId(result.incrementId, product.saleProductId),
                supplier: product.supplier,
              },
            ],
      ),
    };
  };
