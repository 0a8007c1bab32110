import type { Address, BusinessCustomer, SupplierName } from '../schema/common-schemas.ts';
import type { CommandContext } from '../command-context.ts';
import { earlierOutcome, handleCommand, writtenBy, type Written } from '../command-handler.ts';
import { fold } from '../decider.ts';
import { readDomainStream } from '../domain-store.ts';
import type { ImportSale } from './commands.ts';
import { saleDecider } from './decider.ts';
import { nowIso, type SalesDeps } from './deps.ts';
import { saleStreamName, type SaleEvent, type SaleProduct } from './events.ts';
import { fromCents, lineCents, sumCents, toCents } from '../schema/money.ts';
import type { Sale } from './state.ts';
import { formatTrackingNumber } from './tracking-number.ts';

/** An order as the shopping API exports it (order-import contract), already parsed at the edge. */
export type OrderImportPayload = {
  source?: string;
  increment_id: string;
  created_at: string;
  currency?: string;
  customer: { email: string; firstname: string; lastname: string; phone?: string };
  /** The company the customer buys for, its identifiers checked at the edge (contracts/business-customer.ts); absent: a consumer. */
  business_customer?: { company_name: string; siren?: string; siret?: string; vat_number?: string };
  shipping_address: Address;
  billing_address?: Address;
  items: {
    sku: string;
    name: string;
    qty_ordered: number;
    price: number;
    wholesale_price?: number;
    /** Present and null: the line ships from own stock, whatever the catalog says. */
    supplier?: SupplierName | null;
    carrier?: string;
    requires_appointment?: boolean;
  }[];
  payment?: { method: string; status: 'paid' | 'pending' | 'failed' | 'refunded'; amount_paid?: number };
  shipping_amount?: number;
  grand_total?: number;
};

/** What the catalog knows of a SKU that an order line may leave out. */
export type CatalogEntry = { wholesale_price: number | null; supplier: SupplierName | null; carrier: string | null };
export type FindProduct = (sku: string) => Promise<CatalogEntry | null> | CatalogEntry | null;

export type ImportSaleDeps = SalesDeps & { findProduct: FindProduct };

/**
 * The catalog as a bulk import sees it: each SKU looked up once, on its first order, and its entry
 * kept for the orders after it (a file of orders names a few hundred SKUs; each lookup reads and
 * decodes the product's stream). For one import run, not for a server: a product catalogued or
 * changed while the run goes on applies to the runs after it.
 */
export const onceEachSku = (findProduct: FindProduct): FindProduct => {
  const found = new Map<string, Promise<CatalogEntry | null>>();
  return (sku) => {
    let entry = found.get(sku);
    if (!entry) {
      entry = Promise.resolve(findProduct(sku));
      found.set(sku, entry);
      // A failed lookup is not kept: the next order asks again.
      entry.catch(() => found.delete(sku));
    }
    return entry;
  };
};

/** The payload's fields beyond the import contract, shaped as the payload (see events.ts, unknownFields). */
export type UnknownFields = NonNullable<Extract<SaleEvent, { type: 'SaleImported' }>['data']['unknownFields']>;

/** The company as recorded: its SIREN always, from the SIRET when the order gave only that. */
const businessCustomerOf = (company: NonNullable<OrderImportPayload['business_customer']>): BusinessCustomer => ({
  companyName: company.company_name,
  siren: company.siren ?? (company.siret ?? '').slice(0, 9),
  siret: company.siret ?? null,
  vatNumber: company.vat_number ?? null,
});

export type ImportSaleResult = { created: boolean; saleId: number; incrementId: string; saleProductIds: number[]; written?: Written };

/**
 * Builds the command from the order, the catalog entry of each line and the allocated IDs: the order's
 * data wins over the catalog's. `trackingNumbers` go, in order, to the products a supplier ships.
 */
export const importSaleCommand = (
  order: OrderImportPayload,
  resolved: {
    saleId: number;
    saleProductIds: readonly number[];
    catalog: readonly (CatalogEntry | null)[];
    trackingNumbers?: readonly string[];
    at: string;
  },
  unknownFields?: UnknownFields,
): ImportSale => {
  const products: SaleProduct[] = order.items.map((item, index) => {
    const catalog = resolved.catalog[index] ?? null;
    const saleProductId = resolved.saleProductIds[index];
    if (saleProductId === undefined) throw new RangeError(`No sale product ID for line ${index} of order ${order.increment_id}`);
    return {
      saleProductId,
      sku: item.sku,
      name: item.name,
      qty: item.qty_ordered,
      price: item.price,
      wholesalePrice: item.wholesale_price ?? catalog?.wholesale_price ?? null,
      supplier: item.supplier !== undefined ? item.supplier : (catalog?.supplier ?? null),
      carrier: item.carrier ?? catalog?.carrier ?? null,
      requiresAppointment: item.requires_appointment ?? false,
    };
  });
  const shippingAmount = order.shipping_amount ?? 0;
  const supplierLines = products.filter((product) => product.supplier !== null);
  const trackingNumbers = (resolved.trackingNumbers ?? []).slice(0, supplierLines.length).map((trackingNumber, index) => ({
    saleProductId: supplierLines[index]!.saleProductId,
    trackingNumber,
  }));
  return {
    type: 'ImportSale',
    saleId: resolved.saleId,
    incrementId: order.increment_id,
    source: order.source ?? 'shopping-api',
    orderedAt: order.created_at,
    currency: order.currency ?? 'EUR',
    customer: { ...order.customer, phone: order.customer.phone ?? null },
    ...(order.business_customer && { businessCustomer: businessCustomerOf(order.business_customer) }),
    shippingAddress: order.shipping_address,
    billingAddress: order.billing_address ?? null,
    products,
    payment: order.payment ? { method: order.payment.method, status: order.payment.status, amountPaid: order.payment.amount_paid ?? null } : null,
    shippingAmount,
    grandTotal: order.grand_total ?? fromCents(sumCents(products.map(lineCents)) + toCents(shippingAmount)),
    ...(unknownFields && { unknownFields }),
    trackingNumbers,
    at: resolved.at,
  };
};

const answer = (sale: Sale, created: boolean, written?: Written): ImportSaleResult => ({
  created,
  saleId: sale.saleId,
  incrementId: sale.incrementId,
  saleProductIds: sale.products.map((product) => product.saleProductId),
  ...(written && { written }),
});

/** How many of the order's lines a supplier ships, the catalog filling in what the order leaves out. */
const supplierLineCount = (order: OrderImportPayload, catalog: readonly (CatalogEntry | null)[]): number =>
  order.items.filter((item, index) => (item.supplier !== undefined ? item.supplier : (catalog[index]?.supplier ?? null)) !== null).length;

/**
 * Imports an order. Each supplier line is created with its tracking number, so that the sale answers
 * it from the start, and its label, rendered whenever, prints it. An order already imported is
 * answered as it was recorded, and nothing changes; when two imports of one order race, the stream is
 * created by one of them (it expects no stream), the other conflicts, reads the stream again and
 * answers the recorded sale. IDs and numbers allocated by the loser stay unused: sequences may have
 * gaps, never duplicates.
 */
export const importSale = async (
  deps: ImportSaleDeps,
  order: OrderImportPayload,
  context: CommandContext,
  /** The payload's fields beyond the contract, recorded with the order for audit. */
  unknownFields?: UnknownFields,
): Promise<ImportSaleResult> => {
  const existing = await readDomainStream<SaleEvent>(deps.eventStore, saleStreamName(order.increment_id));
  // Recorded by an earlier try of this very request (same idempotency key): answered as that try was.
  const earlier = await earlierOutcome(deps, saleStreamName(order.increment_id), saleDecider, context, existing);
  if (earlier?.state) return answer(earlier.state, true, earlier.written);
  const state = fold(saleDecider, existing.events);
  if (state) return answer(state, false);

  const catalog = await Promise.all(order.items.map((item) => deps.findProduct(item.sku)));
  const [saleId] = await deps.ids.next('sale');
  const saleProductIds = await deps.ids.next('saleProduct', order.items.length);
  if (saleId === undefined) throw new RangeError('The sale sequence handed out no ID');
  const lines = supplierLineCount(order, catalog);
  const trackingNumbers = lines === 0 ? [] : (await deps.ids.next('tracking', lines)).map(formatTrackingNumber);
  const command = importSaleCommand(order, { saleId, saleProductIds, catalog, trackingNumbers, at: nowIso(deps) }, unknownFields);

  // Decided against the stream read above: a writer that created it meanwhile makes the append conflict, and the stream is read again.
  const outcome = await handleCommand(deps, saleStreamName(order.increment_id), saleDecider, command, context, { stream: existing });
  if (outcome.status === 'refused' || outcome.state === null) throw new Error(`Import of order ${order.increment_id} recorded no sale (${outcome.status})`);
  return answer(outcome.state, outcome.status === 'accepted', writtenBy(outcome));
};
