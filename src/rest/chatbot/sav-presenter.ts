import type { SavDocument } from '../../projections/after-sales/sav-document.ts';
import { presentSavFile } from '../sav-files/sav-file-presenter.ts';

/**
 * A SAV as the chatbot shows it: the element of `sav_records` and of the `sav_history` of a sale or a
 * customer, one shape everywhere. `complaint_type` is the complaint's category; `files` link to the
 * chatbot's own download route (BASE_URL first).
 */
export const presentSavRecord = (sav: SavDocument, baseUrl: string) => ({
  id: sav._id,
  sale_ref: sav.incrementId,
  status: sav.status,
  complaint_type: sav.complaintName,
  created_at: sav.createdAt,
  products: sav.products.map(({ sku, name }) => ({ sku, name })),
  files: sav.files.map((file) => presentSavFile(sav._id, file, { baseUrl, group: 'chatbot' })),
});
