import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { ErasedCustomerData } from '../events/customers/erase-customer.ts';
import { serviceOrderId } from '../events/sales/service-order-id.ts';
import { labelFileFor } from '../files/label-path.ts';
import { mailDirectory } from '../mail/mail-transport.ts';

/**
 * The files under DATA_DIR made from an erased customer's data: the shipping labels of their sales'
 * lines (a label fetched later is rendered again, from the erased data) and the lead notifications
 * written as `.eml` files (when mail goes to files). They are derived data: deleting them loses nothing
 * the log does not hold. Answers how many files were deleted.
 */
export const deleteErasedFiles = async (dataDir: string, erased: readonly ErasedCustomerData[]): Promise<number> => {
  const files = erased.flatMap(({ sales, leadIds }) => [
    ...sales.flatMap(({ incrementId, supplierLines }) =>
      supplierLines.map(({ supplier, saleProductId }) => labelFileFor(dataDir, supplier, serviceOrderId(incrementId, saleProductId))),
    ),
    ...leadIds.map((leadId) => path.join(mailDirectory(dataDir), `${leadId}.eml`)),
  ]);
  let deleted = 0;
  for (const file of files) {
    try {
      await rm(file);
      deleted += 1;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return deleted;
};
