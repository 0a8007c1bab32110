import type { RouterMiddleware } from '@koa/router';
import { findSaleByIncrementId } from '../../../projections/sales/queries.ts';
import { findSavs } from '../../../projections/after-sales/queries.ts';
import type { Runtime } from '../../../runtime.ts';
import { parseInput } from '../../parse-input.ts';
import { invalidParameter, saleNotFound } from './sale-errors.ts';
import { presentSale } from './sale-presenter.ts';
import { incrementIdParams } from './schemas.ts';

/** GET /api/get-sale-info-by-increment-id/{incrementId}: the full sale, as GET /api/sale/{id} answers it. */
export const saleByIncrementId =
  (runtime: Runtime): RouterMiddleware =>
  async (ctx) => {
    const { incrementId } = parseInput(incrementIdParams, ctx.params, invalidParameter);
    const sale = await findSaleByIncrementId(runtime.readStore, incrementId);
    if (!sale) throw saleNotFound({ incrementId });
    ctx.body = presentSale(sale, await findSavs(runtime.readStore, { incrementId }));
  };
