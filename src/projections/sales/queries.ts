import type { ReadStore } from '../read-store/read-store.ts';
import { salesCollection, type SaleDocument } from './sale-document.ts';

/** Reads of the `sales` read model. */

export const findSaleById = (store: ReadStore, saleId: number): Promise<SaleDocument | null> =>
  store.collection<SaleDocument>(salesCollection).findOne({ _id: saleId });

export const findSaleByIncrementId = (store: ReadStore, incrementId: string): Promise<SaleDocument | null> =>
  store.collection<SaleDocument>(salesCollection).findOne({ incrementId });
