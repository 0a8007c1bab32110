import { createHash } from 'node:crypto';
import type { Address, SupplierName } from '../events/schema/common-schemas.ts';
import type { Sale, SaleProductState } from '../events/sales/state.ts';
import type { SupplierLineDocument } from '../projections/supplier-lines/supplier-line-document.ts';

/** Everything a shipping label prints, whichever side (read model or sale stream) it was read from. */
export type LabelData = {
  serviceOrderId: string;
  incrementId: string;
  supplier: SupplierName;
  sku: string;
  productName: string;
  quantity: number;
  carrier: string | null;
  recipient: Address;
  trackingNumber: string;
};

export const labelDataFromLine = (line: SupplierLineDocument, trackingNumber: string): LabelData => ({
  serviceOrderId: line._id,
  incrementId: line.incrementId,
  supplier: line.supplier,
  sku: line.sku,
  productName: line.name,
  quantity: line.quantity,
  carrier: line.carrier,
  recipient: line.shippingAddress,
  trackingNumber,
});

export const labelDataFromSale = (
  sale: Sale,
  product: SaleProductState & { supplier: SupplierName },
  serviceOrderId: string,
  trackingNumber: string,
): LabelData => ({
  serviceOrderId,
  incrementId: sale.incrementId,
  supplier: product.supplier,
  sku: product.sku,
  productName: product.name,
  quantity: product.qty,
  carrier: product.carrier,
  recipient: sale.shippingAddress,
  trackingNumber,
});

/**
 * A digest of what a label prints, stored in the PDF's metadata: a file on disk is served only when it
 * was rendered from the data recorded now (same tracking number, same address), else it is rendered
 * again. Fields are listed in a fixed order so that both sources give the same digest.
 */
export const labelDigest = (data: LabelData): string => {
  const { recipient } = data;
  const fields = [
    data.serviceOrderId,
    data.incrementId,
    data.supplier,
    data.sku,
    data.productName,
    data.quantity,
    data.carrier,
    data.trackingNumber,
    recipient.firstname,
    recipient.lastname,
    recipient.company ?? null,
    recipient.street,
    recipient.postcode,
    recipient.city,
    recipient.country_id,
    recipient.telephone ?? null,
  ];
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
};
