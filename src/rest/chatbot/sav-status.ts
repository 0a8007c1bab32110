import type { RouterMiddleware } from '@koa/router';
import { findSavs, type SavLookup } from '../../projections/after-sales/queries.ts';
import { findCustomer } from '../../projections/customers/queries.ts';
import { findSaleByIncrementId } from '../../projections/sales/queries.ts';
import type { Runtime } from '../../runtime.ts';
import { parseInput } from '../parse-input.ts';
import { legacyQuery } from '../query-parameters.ts';
import { customerNotFound, invalidParameters, orderNotFound } from './chatbot-errors.ts';
import { presentSavRecord } from './sav-presenter.ts';
import { savStatusQuery } from './schemas.ts';

/**
 * GET /api/customer/sav-status: the SAVs of a customer or of an order, optionally of one product.
 * A known customer or order without SAV answers an empty list; an unknown one answers 404, so that
 * the chatbot can tell "no SAV" from "wrong e-mail or order number" and ask again.
 */
export const savStatus =
  (runtime: Runtime): RouterMiddleware =>
  async (ctx) => {
    const query = parseInput(savStatusQuery, legacyQuery(ctx.query), invalidParameters);
    // The schema admits exactly one of the two.
    const whose: SavLookup = query.email !== undefined ? { email: query.email } : { incrementId: query.increment_id! };
    const savs = await findSavs(runtime.readStore, { ...whose, productSku: query.product_sku, saleProductId: query.sale_product_id });
    if (savs.length === 0) {
      if (whose.email !== undefined && !(await findCustomer(runtime.readStore, whose.email))) throw customerNotFound(whose.email);
      if (whose.incrementId !== undefined && !(await findSaleByIncrementId(runtime.readStore, whose.incrementId))) {
        throw orderNotFound(whose.incrementId);
      }
    }
    ctx.body = { success: true, sav_records: savs.map((sav) => presentSavRecord(sav, runtime.config.baseUrl)) };
  };
