import type { CreateSavDeps } from '../../events/after-sales/create-sav.ts';
import type { SavSale } from '../../events/after-sales/sav-decider.ts';
import type { ReadStore } from '../../projections/read-store/read-store.ts';
import type { Runtime } from '../../runtime.ts';
import { salesCollection, type SaleDocument } from '../../projections/sales/sale-document.ts';

export const toSavSale = (sale: SaleDocument): SavSale => ({
  saleId: sale._id,
  incrementId: sale.incrementId,
  saleProductIds: sale.products.map((product) => product.saleProductId),
  products: sale.products.map(({ saleProductId, sku, name }) => ({ saleProductId, sku, name })),
  customerEmail: sale.customer.email,
});

/**
 * `loadSale` of createSav, from the `sales` read model: the sale holding one of these products. A
 * product of another sale is then not on it, and createSav refuses the request.
 */
export const loadSavSale =
  (store: ReadStore): CreateSavDeps['loadSale'] =>
  async (saleProductIds) => {
    const sale = await store
      .collection<SaleDocument>(salesCollection)
      .findOne({ 'products.saleProductId': { $in: [...saleProductIds] } }, { sort: { _id: 1 } });
    return sale && toSavSale(sale);
  };

/** What createSav needs, for every route that opens SAVs (chatbot and core). */
export const savCreationDeps = (runtime: Runtime): CreateSavDeps => ({
  ...runtime.write,
  ids: runtime.ids,
  timezone: runtime.config.planningTimezone,
  loadSale: loadSavSale(runtime.readStore),
});
