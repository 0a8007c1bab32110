import type { ParameterizedContext } from 'koa';
import type { SaleDocument } from '../../../projections/sales/sale-document.ts';
import { findSaleById } from '../../../projections/sales/queries.ts';
import type { Runtime } from '../../../runtime.ts';
import { parseInput } from '../../parse-input.ts';
import { invalidParameter, saleNotFound } from './sale-errors.ts';
import { saleIdParams } from './schemas.ts';

/** The sale named by the route's `{id}`: a 400 naming `id` when it is not a sale ID, a 404 when no sale has it. */
export const saleFromIdParam = async (runtime: Runtime, ctx: ParameterizedContext): Promise<SaleDocument> => {
  const { id } = parseInput(saleIdParams, ctx.params, invalidParameter);
  const sale = await findSaleById(runtime.readStore, id);
  if (!sale) throw saleNotFound({ id });
  return sale;
};
