import type { z } from 'zod';
import { HttpError } from '../../../http/http-error.ts';

/** The answers of the order import and the package search that are not successes, in the core envelope. */

/** A refused input, naming the field: `items.0.qty_ordered: Too small ...`, or the unknown key itself. */
export const invalidRequest = (field: string, issue: z.core.$ZodIssue): HttpError => {
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((key) => (field === '' ? key : `${field}.${key}`));
    return new HttpError(400, 'invalid_request', `${keys.join(', ')}: unknown field${keys.length > 1 ? 's' : ''}`);
  }
  return new HttpError(400, 'invalid_request', `${field === '' ? 'body' : field}: ${issue.message}`);
};

export type ImportedIds = { saleId: number; incrementId: string; saleProductIds: number[] };

/**
 * The increment ID was imported before with other content. Nothing is changed (the recorded order
 * stands), but the client is told which fields differ rather than being answered as if they matched.
 */
export const orderConflict = (imported: ImportedIds, differences: readonly string[]): HttpError =>
  new HttpError(
    409,
    'order_conflict',
    `Order ${imported.incrementId} was already imported with different content (${differences.join(', ')}); nothing was changed`,
    {
      sale_id: imported.saleId,
      increment_id: imported.incrementId,
      sale_product_ids: imported.saleProductIds,
      differences,
    },
  );
