import { saleLogOfSaleId, type SaleLogEntry } from '../../src/graphql/sale-log/sale-log.ts';
import { findSavById } from '../../src/projections/after-sales/queries.ts';
import type { Runtime } from '../../src/runtime.ts';

/** The sale log as GraphQL answers it (`saleLog`), of a sale, or of the sale a SAV is for. */
export const saleLogOfSale = async (runtime: Runtime, saleId: number): Promise<SaleLogEntry[]> => {
  const log = await saleLogOfSaleId(runtime.readStore, runtime.eventStore, saleId);
  if (!log) throw new Error(`no sale ${saleId} in the read model`);
  return log;
};

export const saleLogOfSav = async (runtime: Runtime, savId: number): Promise<SaleLogEntry[]> => {
  const sav = await findSavById(runtime.readStore, savId);
  if (!sav) throw new Error(`no SAV ${savId} in the read model`);
  return saleLogOfSale(runtime, sav.saleId);
};
