import type { SavDocument, SavStatus } from '../../projections/after-sales/sav-document.ts';
import { presentSavFile } from '../sav-files/sav-file-presenter.ts';

/** The status as the chatbot words it to the customer. */
export const savStatusLabels: Readonly<Record<SavStatus, string>> = {
  in_progress: 'En cours de traitement',
  resolved: 'Résolu',
  closed: 'Clôturé',
  cancelled: 'Annulé',
};

/**
 * A SAV as the chatbot shows it: the element of `sav_records` and of the `sav_history` of a sale or a
 * customer, one shape everywhere. `complaint_type` is the complaint's category; `files` link to the
 * chatbot's own download route (BASE_URL first). The resolution is what staff did for the customer
 * (null until resolved); why a SAV was cancelled or reopened is kept for staff and not shown here.
 */
export const presentSavRecord = (sav: SavDocument, baseUrl: string) => ({
  id: sav._id,
  sale_ref: sav.incrementId,
  status: sav.status,
  status_label: savStatusLabels[sav.status],
  complaint_type: sav.complaintName,
  created_at: sav.createdAt,
  status_changed_at: sav.statusChangedAt,
  resolution: sav.resolution,
  products: sav.products.map(({ sku, name }) => ({ sku, name })),
  files: sav.files.map((file) => presentSavFile(sav._id, file, { baseUrl, group: 'chatbot' })),
});
