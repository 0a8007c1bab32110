import type { RouterMiddleware } from '@koa/router';
import { findProduct } from '../../projections/catalog/queries.ts';
import type { Runtime } from '../../runtime.ts';
import { parseInput } from '../parse-input.ts';
import { invalidParameters, productNotFound } from './chatbot-errors.ts';
import { presentProduct } from './product-presenter.ts';
import { productParams } from './schemas.ts';

/** GET /api/product/{sku}: a catalog product and whether it is in stock. */
export const productDetails =
  (runtime: Runtime): RouterMiddleware =>
  async (ctx) => {
    const { sku } = parseInput(productParams, ctx.params, invalidParameters);
    const product = await findProduct(runtime.readStore, sku);
    if (!product) throw productNotFound(sku);
    ctx.body = { success: true, product: presentProduct(product) };
  };
