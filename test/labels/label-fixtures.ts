import { systemContext } from '../../src/events/command-context.ts';
import type { Clock } from '../../src/events/command-context.ts';
import { appendDomainEvents, readDomainStream } from '../../src/events/domain-store.ts';
import { saleStreamName, type SaleEvent } from '../../src/events/sales/events.ts';
import { importSale, importSaleCommand, type OrderImportPayload } from '../../src/events/sales/import-sale.ts';
import { serviceOrderId } from '../../src/events/sales/service-order-id.ts';
import type { LabelData } from '../../src/labels/label-data.ts';
import type { Runtime } from '../../src/runtime.ts';

/** Orders with a line for each drop-shipper and one from own stock, each with a fresh increment ID. */

export const frozenClock: Clock = { now: () => new Date('2026-10-03T08:00:00.000Z') };

let lastIncrementId = 400_000_000;

export const labelOrder = (): OrderImportPayload => ({
  increment_id: String(++lastIncrementId),
  created_at: '2026-10-02T09:14:00+02:00',
  customer: { email: 'elodie.durand@example.org', firstname: 'Élodie', lastname: 'Durand' },
  shipping_address: {
    firstname: 'Élodie',
    lastname: 'Durand',
    street: ['8 rue des Granges', 'Escalier C'],
    postcode: '25000',
    city: 'Besançon',
    country_id: 'FR',
    telephone: '+33381000000',
  },
  items: [
    { sku: 'CAN-OSLO-3P-GRY', name: 'Canapé 3 places Oslo gris', qty_ordered: 2, price: 649, supplier: 'supplier-a', carrier: 'Geodis' },
    { sku: 'TAB-NORD-180', name: 'Table à manger Nord 180 cm', qty_ordered: 1, price: 499, supplier: 'supplier-b', carrier: 'DB Schenker' },
    { sku: 'LAMP-ARC-BLK', name: 'Lampadaire arc noir', qty_ordered: 3, price: 129.9, supplier: null },
  ],
});

export type ImportedLabelOrder = {
  order: OrderImportPayload;
  incrementId: string;
  /** The service_order_id of each line. */
  supplierALine: string;
  supplierBLine: string;
  ownStockLine: string;
};

export const importLabelOrder = async (runtime: Pick<Runtime, 'salesDeps' | 'projections'>): Promise<ImportedLabelOrder> => {
  const order = labelOrder();
  const { incrementId, saleProductIds, written } = await importSale(runtime.salesDeps, order, systemContext());
  // In the read models, where the label service reads the line.
  if (written) await runtime.projections.waitFor(written.position);
  const [a, b, own] = saleProductIds.map((id) => serviceOrderId(incrementId, id));
  return { order, incrementId, supplierALine: a!, supplierBLine: b!, ownStockLine: own! };
};

/**
 * An order as the log holds those imported before tracking numbers were allocated at import: the sale
 * alone, its supplier lines without a number until their label is first asked for.
 */
export const importLegacyLabelOrder = async (runtime: Pick<Runtime, 'salesDeps' | 'projections'>): Promise<ImportedLabelOrder> => {
  const order = labelOrder();
  const deps = runtime.salesDeps;
  const [saleId] = await deps.ids.next('sale');
  const saleProductIds = await deps.ids.next('saleProduct', order.items.length);
  const {
    type: _type,
    at,
    trackingNumbers: _none,
    ...data
  } = importSaleCommand(order, { saleId: saleId!, saleProductIds, catalog: [], at: frozenClock.now().toISOString() });
  const imported = { type: 'SaleImported' as const, data: { ...data, importedAt: at } };
  const { position } = await appendDomainEvents(
    deps.eventStore,
    saleStreamName(order.increment_id),
    [imported],
    systemContext(),
    frozenClock.now(),
    'no_stream',
  );
  await runtime.projections.waitFor(position, ['SaleImported']);
  const [a, b, own] = saleProductIds.map((id) => serviceOrderId(order.increment_id, id));
  return { order, incrementId: order.increment_id, supplierALine: a!, supplierBLine: b!, ownStockLine: own! };
};

/** The tracking numbers recorded for the sale's lines (TrackingNumberAllocated), in the order of the log. */
export const trackingEvents = async (runtime: Pick<Runtime, 'eventStore'>, incrementId: string) =>
  (await readDomainStream<SaleEvent>(runtime.eventStore, saleStreamName(incrementId))).events.flatMap((event) =>
    event.type === 'TrackingNumberAllocated' ? [event.data] : [],
  );

/** How many events the sale's stream holds: a request that records nothing leaves it as it was. */
export const saleStreamLength = async (runtime: Pick<Runtime, 'eventStore'>, incrementId: string): Promise<number> =>
  (await readDomainStream<SaleEvent>(runtime.eventStore, saleStreamName(incrementId))).events.length;

/** A label's data, with a recipient whose name and street are outside Latin-1. */
export const aLabel = (overrides: Partial<LabelData> = {}): LabelData => ({
  serviceOrderId: '100004512_7',
  incrementId: '100004512',
  supplier: 'supplier-b',
  sku: 'TAB-NORD-180',
  productName: 'Table à manger Nord 180 cm',
  quantity: 1,
  carrier: 'DB Schenker',
  recipient: { firstname: 'Łucja', lastname: 'Nowak-Sørensen', street: ['Ulica Świętokrzyska 12'], postcode: '00-360', city: 'Warszawa', country_id: 'PL' },
  trackingNumber: 'MC0000000000422',
  ...overrides,
});
