import type { RouterMiddleware } from '@koa/router';
import type { Runtime } from '../../../runtime.ts';
import { presentRefund } from './refund-presenter.ts';
import { saleFromIdParam } from './sale-loader.ts';

/** GET /api/sale-refund/{id}: the sale's refunds in the order they were requested; [] when there is none. */
export const saleRefunds =
  (runtime: Runtime): RouterMiddleware =>
  async (ctx) => {
    const sale = await saleFromIdParam(runtime, ctx);
    ctx.body = sale.refunds.map(presentRefund);
  };
