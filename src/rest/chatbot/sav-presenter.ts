import type { SavDocument } from '../../projections/after-sales/sav-document.ts';

/**
 * A SAV as the chatbot shows it: the element of `sav_records` and of the `sav_history` of a sale or a
 * customer, one shape everywhere. `complaint_type` is the complaint's category.
 */
export const presentSavRecord = (sav: SavDocument) => ({
  id: sav._id,
  sale_ref: sav.incrementId,
  status: sav.status,
  complaint_type: sav.complaintName,
  created_at: sav.createdAt,
  products: sav.products.map(({ sku, name }) => ({ sku, name })),
});
