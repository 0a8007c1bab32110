import { defaultOperationCategory, type OperationCategory } from '../events/catalog/events.ts';
import type { DocumentOperationCategory } from '../events/invoicing/documents.ts';

/**
 * The category of operation a document states, from its lines': only goods, only services, or both
 * (`mixed`). The delivery fee follows the goods it delivers and adds none. Lines recorded before the
 * categories existed were all goods.
 */
export const operationCategoryOf = (lines: readonly { operationCategory?: OperationCategory }[]): DocumentOperationCategory => {
  const categories = new Set(lines.map((line) => line.operationCategory ?? defaultOperationCategory));
  return categories.size > 1 ? 'mixed' : (categories.values().next().value ?? defaultOperationCategory);
};
