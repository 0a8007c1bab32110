import type { RouterMiddleware } from '@koa/router';
import { findSavs } from '../../projections/after-sales/queries.ts';
import { findSaleByIncrementId } from '../../projections/sales/queries.ts';
import type { Runtime } from '../../runtime.ts';
import { parseInput } from '../parse-input.ts';
import { findProductsBySku } from './catalog-batch.ts';
import { invalidParameters, orderNotFound } from './chatbot-errors.ts';
import { presentSaleDetails } from './sale-presenter.ts';
import { saleDetailsParams } from './schemas.ts';

/** GET /api/sale/details/{incrementId}: an order as the customer sees it, with its products' availability and its SAVs. */
export const saleDetails =
  (runtime: Runtime): RouterMiddleware =>
  async (ctx) => {
    const { incrementId } = parseInput(saleDetailsParams, ctx.params, invalidParameters);
    const sale = await findSaleByIncrementId(runtime.readStore, incrementId);
    if (!sale) throw orderNotFound(incrementId);
    const [catalog, savs] = await Promise.all([
      findProductsBySku(
        runtime.readStore,
        sale.products.map((product) => product.sku),
      ),
      findSavs(runtime.readStore, { incrementId }),
    ]);
    ctx.body = { success: true, data: presentSaleDetails(sale, catalog, savs, runtime.config.baseUrl) };
  };
