import type { Address, SupplierName } from '../../events/schema/common-schemas.ts';
import type { Tracked } from '../projection.ts';
import type { LineRefusal } from '../../events/sales/state.ts';
import type { SaleProductStateName } from '../sales/sale-document.ts';

/** The `supplier_lines` read model: one document per drop-shipped product, `_id` = service_order_id. */

export const supplierLinesCollection = 'supplier_lines';

export type SupplierLineDocument = Tracked & {
  /** `<incrementId>_<saleProductId>`. */
  _id: string;
  supplier: SupplierName;
  saleId: number;
  incrementId: string;
  /** The increment ID left-padded to 20 digits, so that sorting strings sorts the numbers. */
  incrementSort: string;
  saleProductId: number;
  sku: string;
  name: string;
  quantity: number;
  /** Wholesale unit price; null when unknown. */
  price: number | null;
  carrier: string | null;
  orderDate: string;
  orderedAt: string;
  state: SaleProductStateName;
  /** True until shipped, cancelled or refused by its supplier (a hand-over opens it again, for the other supplier). */
  open: boolean;
  acknowledgedAt: string | null;
  preparedAt: string | null;
  cancelledAt: string | null;
  trackingNumber: string | null;
  labelPath: string | null;
  /** The supplier's refusal while it stands. */
  refusal: LineRefusal | null;
  shippingAddress: Address;
  customerName: string;
  /** The line as get-sales lists it, in two parts around the base URL of its label link (listing.ts); null once closed. */
  listingHead: string | null;
  listingTail: string | null;
};

export const incrementSortKey = (incrementId: string): string => incrementId.padStart(20, '0');
