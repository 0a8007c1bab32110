import path from 'node:path';
import type { SupplierName } from '../events/schema/common-schemas.ts';
import { supplierName } from '../events/schema/common-schemas.ts';

/**
 * Where a supplier line's label lives: `labels/<supplier>/<service_order_id>.pdf`, relative to the file
 * storage (`DATA_DIR/files`) and served at `GET /api/files/<path>`. The supplier API links to it, so
 * the scheme is fixed.
 */

const labelPathPattern = /^labels\/(supplier-a|supplier-b)\/(\d+_\d+)\.pdf$/;

export const labelPathFor = (supplier: SupplierName, serviceOrderId: string): string => `labels/${supplier}/${serviceOrderId}.pdf`;

/**
 * The supplier and line a requested path names; null for anything else, which is how every traversal
 * attempt (`..`, encoded characters, backslashes, absolute paths, NUL) is refused: only this exact
 * shape is ever turned into a file name.
 */
export const parseLabelPath = (requested: string): { supplier: SupplierName; serviceOrderId: string } | null => {
  const match = labelPathPattern.exec(requested);
  if (!match) return null;
  return { supplier: supplierName.parse(match[1]), serviceOrderId: match[2] as string };
};

/** The folder under DATA_DIR holding the files served by GET /api/files. */
export const filesRoot = (dataDir: string): string => path.join(dataDir, 'files');

/** The absolute file of a label path built by labelPathFor (never from a path a client sent). */
export const labelFileFor = (dataDir: string, supplier: SupplierName, serviceOrderId: string): string =>
  path.join(filesRoot(dataDir), labelPathFor(supplier, serviceOrderId));
