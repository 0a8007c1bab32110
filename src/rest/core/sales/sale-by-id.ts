import type { RouterMiddleware } from '@koa/router';
import { findSavs } from '../../../projections/after-sales/queries.ts';
import type { Runtime } from '../../../runtime.ts';
import { saleFromIdParam } from './sale-loader.ts';
import { presentSale } from './sale-presenter.ts';

/** GET /api/sale/{id}: the full sale, its products with their tracking pages. */
export const saleById =
  (runtime: Runtime): RouterMiddleware =>
  async (ctx) => {
    const sale = await saleFromIdParam(runtime, ctx);
    ctx.body = presentSale(sale, await findSavs(runtime.readStore, { incrementId: sale.incrementId }));
  };
