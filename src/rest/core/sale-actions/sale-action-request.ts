import type { z } from 'zod';
import type { ActionTokenPayload } from '../../../events/access/action-token-payload.ts';
import type { ActionKind } from '../../../events/access/events.ts';
import { findSaleById } from '../../../projections/sales/queries.ts';
import type { SaleDocument } from '../../../projections/sales/sale-document.ts';
import type { Runtime } from '../../../runtime.ts';
import { parseInput } from '../../parse-input.ts';
import { verifiedActionToken } from '../action-token-guard.ts';
import { invalidRequest, invalidTokenData, saleNotFound } from './sale-action-errors.ts';
import { actionTokenParams } from './schemas.ts';

export type SaleActionRequest = { payload: ActionTokenPayload; sale: SaleDocument };

/**
 * The first steps of every sale action: the token of the path, verified and of the route's kind
 * (404 otherwise, as for a sale that does not exist). Nothing is recorded here.
 */
export const saleActionRequest = async (runtime: Runtime, params: unknown, kind: ActionKind): Promise<SaleActionRequest> => {
  const { token } = parseInput(actionTokenParams, params, invalidRequest);
  const payload = verifiedActionToken(runtime, token, kind);
  const sale = await findSaleById(runtime.readStore, payload.saleId);
  if (!sale) throw saleNotFound(payload.saleId);
  return { payload, sale };
};

/** The token's data, read with the schema its kind was minted with. */
export const tokenData = <S extends z.ZodType>(schema: S, payload: ActionTokenPayload): z.output<S> => parseInput(schema, payload.data, invalidTokenData);
