import type { CreateSavDeps, SavFileStore } from '../../events/after-sales/create-sav.ts';
import { discardSavFile, storeSavFile } from '../../files/sav-files.ts';
import type { SavSale } from '../../events/after-sales/sav-commands.ts';
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

/** The files sent with a SAV request, kept under DATA_DIR/sav-files/<savId>/. */
const savFileStore = (dataDir: string): SavFileStore => ({
  store: (savId, file) => storeSavFile(dataDir, { savId, ...file }),
  discard: (file) => discardSavFile(dataDir, file.storedPath),
});

/** What createSav needs, for every route that opens SAVs (chatbot and core). */
export const savCreationDeps = (runtime: Runtime): CreateSavDeps => ({
  ...runtime.planning,
  ids: runtime.ids,
  loadSale: loadSavSale(runtime.readStore),
  files: savFileStore(runtime.config.dataDir),
});
