import { findSaleById, findSaleByIncrementId } from '../../projections/sales/queries.ts';
import type { SaleDocument } from '../../projections/sales/sale-document.ts';
import type { ReadStore } from '../../projections/read-store/read-store.ts';
import { badUserInput } from '../errors.ts';

/** A sale named by exactly one of its IDs: the sale ID or the order's increment ID. */
export type SaleKey = { id?: number | null; incrementId?: string | null };

export const findSaleByKey = (store: ReadStore, key: SaleKey): Promise<SaleDocument | null> => {
  const hasId = key.id !== undefined && key.id !== null;
  const hasIncrementId = key.incrementId !== undefined && key.incrementId !== null;
  if (hasId === hasIncrementId) throw badUserInput('id', 'give exactly one of id and incrementId');
  return hasId ? findSaleById(store, key.id!) : findSaleByIncrementId(store, key.incrementId!);
};
