/**
 * The shapes of the two import contracts (events/catalog/catalog-import.ts, contracts/order-import.ts),
 * written out by hand for the demo data generator: only what the generator produces and reads. The
 * demo specs check what it makes against the contracts' JSON Schemas.
 */

export type SupplierCode = 'supplier-a' | 'supplier-b';

export interface CatalogItem {
  sku: string;
  /** GTIN-14 of the shipping package. */
  ean14?: string;
  name: string;
  description?: string;
  /** Retail price, tax included. */
  price: number;
  wholesale_price?: number;
  availability?: string;
  stock_qty?: number;
  images?: string[];
  /** null: shipped from the operator's own stock. */
  supplier?: SupplierCode | null;
  carrier?: string;
  weight_kg?: number;
  /** Number of parcels one unit ships in. */
  package_count?: number;
}

export interface OrderAddress {
  firstname: string;
  lastname: string;
  company?: string;
  /** One to four lines. */
  street: string[];
  postcode: string;
  city: string;
  country_id: string;
  telephone?: string;
}

export interface OrderCustomer {
  email: string;
  firstname: string;
  lastname: string;
  phone?: string;
}

export interface OrderItem {
  sku: string;
  name: string;
  qty_ordered: number;
  /** Retail unit price, tax included. */
  price: number;
  /** When absent, the catalog's wholesale_price for the SKU. */
  wholesale_price?: number;
  /** When absent, the catalog's supplier for the SKU; null ships from own stock. */
  supplier?: SupplierCode | null;
  /** When absent, the catalog's carrier for the SKU. */
  carrier?: string;
  requires_appointment?: boolean;
}

export type PaymentStatus = 'paid' | 'pending' | 'failed' | 'refunded';

export interface OrderPayment {
  method: string;
  status: PaymentStatus;
  amount_paid?: number;
}

export interface OrderPayload {
  source?: string;
  /** Digits only. */
  increment_id: string;
  /** RFC 3339 with offset. */
  created_at: string;
  currency?: string;
  customer: OrderCustomer;
  shipping_address: OrderAddress;
  billing_address?: OrderAddress;
  items: OrderItem[];
  payment?: OrderPayment;
  shipping_amount?: number;
  grand_total?: number;
}
