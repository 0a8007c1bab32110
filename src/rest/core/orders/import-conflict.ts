import { readDomainStream } from '../../../events/domain-store.ts';
import type { EventStore } from '../../../events/store/event-store.ts';
import { saleStreamName, type SaleEvent } from '../../../events/sales/events.ts';
import { importSaleCommand, type OrderImportPayload } from '../../../events/sales/import-sale.ts';

/**
 * Is a re-sent order the one recorded? It is compared with the sale's SaleImported event, not with the
 * sale as it stands: an address updated or a line cancelled since is not a difference in the order.
 */

export type RecordedImport = Extract<SaleEvent, { type: 'SaleImported' }>['data'];

export const recordedImport = async (eventStore: EventStore, incrementId: string): Promise<RecordedImport | null> => {
  const { events } = await readDomainStream<SaleEvent>(eventStore, saleStreamName(incrementId));
  const imported = events.find((event) => event.type === 'SaleImported');
  return imported?.type === 'SaleImported' ? imported.data : null;
};

/** The recorded field names as the order-import contract spells them (the other names are the same). */
const contractNames: Record<string, string> = {
  orderedAt: 'created_at',
  shippingAddress: 'shipping_address',
  billingAddress: 'billing_address',
  products: 'items',
  shippingAmount: 'shipping_amount',
  grandTotal: 'grand_total',
  amountPaid: 'amount_paid',
  qty: 'qty_ordered',
  wholesalePrice: 'wholesale_price',
  requiresAppointment: 'requires_appointment',
  businessCustomer: 'business_customer',
  companyName: 'company_name',
  vatNumber: 'vat_number',
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The paths where two JSON values differ; an absent field and a null one are the same. */
const differingPaths = (expected: unknown, actual: unknown, path: readonly string[]): string[][] => {
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length !== actual.length) return [[...path]];
    return expected.flatMap((item, index) => differingPaths(item, actual[index], [...path, String(index)]));
  }
  if (isRecord(expected) && isRecord(actual)) {
    const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
    return [...keys].flatMap((key) => differingPaths(expected[key], actual[key], [...path, key]));
  }
  return Object.is(expected ?? null, actual ?? null) ? [] : [[...path]];
};

/** One instant written with two offsets is the same instant. */
const sameInstantText = (value: string): string => new Date(value).toISOString();

/**
 * The fields of `order` that differ from the recorded import, named as in the contract
 * (`items.0.qty_ordered`, `customer.email`); empty when the order is the one recorded. A line field
 * the order leaves to the catalog (wholesale price, supplier, carrier) is compared only when given:
 * the catalog may have changed since, the order has not.
 */
export const importDifferences = (order: OrderImportPayload, recorded: RecordedImport): string[] => {
  if (order.items.length !== recorded.products.length) return ['items'];
  const {
    type: _type,
    at: _at,
    trackingNumbers: _trackingNumbers,
    ...expected
  } = importSaleCommand(order, {
    saleId: recorded.saleId,
    saleProductIds: recorded.products.map((product) => product.saleProductId),
    catalog: recorded.products.map((product) => ({
      wholesale_price: product.wholesalePrice,
      supplier: product.supplier,
      carrier: product.carrier,
    })),
    at: recorded.importedAt,
  });
  // Fields beyond the contract are not the order's: a marketplace re-sending it may have changed them.
  const { importedAt: _importedAt, unknownFields: _unknownFields, ...actual } = recorded;
  return differingPaths({ ...expected, orderedAt: sameInstantText(expected.orderedAt) }, { ...actual, orderedAt: sameInstantText(actual.orderedAt) }, []).map(
    (path) => path.map((segment) => contractNames[segment] ?? segment).join('.'),
  );
};
