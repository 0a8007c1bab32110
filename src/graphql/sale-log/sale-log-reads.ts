import { saleLogCollection, type SaleLogEntry } from '../../projections/sale-log/sale-log-projection.ts';
import type { ReadStore } from '../../projections/read-store/read-store.ts';

/** The log entries of several sales in one read (the sale log projection exports no query of its own). */
export const saleLogEntriesOf = (store: ReadStore, saleIds: readonly number[]): Promise<SaleLogEntry[]> =>
  store
    .collection<SaleLogEntry>(saleLogCollection)
    .find({ saleId: { $in: [...saleIds] } }, { sort: { position: 1 } })
    .toArray();
