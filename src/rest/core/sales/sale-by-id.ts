import type { RouterMiddleware } from '@koa/router';
import type { Runtime } from '../../../runtime.ts';
import { saleFromIdParam } from './sale-loader.ts';
import { presentSale } from './sale-presenter.ts';

/** GET /api/sale/{id}: the full sale, its products with their tracking pages. */
export const saleById =
  (runtime: Runtime): RouterMiddleware =>
  async (ctx) => {
    ctx.body = presentSale(await saleFromIdParam(runtime, ctx));
  };
