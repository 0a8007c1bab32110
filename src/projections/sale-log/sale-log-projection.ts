import type { StoredEvent } from '../../events/registry.ts';
import { savEventDefinitions } from '../../events/after-sales/events.ts';
import { incrementIdOfStream, saleEventDefinitions } from '../../events/sales/events.ts';
import type { Actor } from '../../events/store/event-store.ts';
import { erased } from '../../events/schema/personal-data.ts';
import { isCustomerErased, type CustomerErasedEvent } from '../erasure.ts';
import { insertOnce, type Projection } from '../projection.ts';
import type { ReadStore } from '../read-store/read-store.ts';
import { addressUpdatedSummary, summarise, type ProductNames, type SaleLogEvent, type Summary } from './sale-log-summary.ts';

/**
 * The sale log: the history of a sale and of its SAVs, one entry per event, in log order, with a
 * readable line in French and English. Entries are facts: written once, keyed by the event id.
 */

export const saleLogCollection = 'sale_log';
/** savId -> sale, from SavCreated: the other SAV events name only their SAV. */
export const saleLogSavsCollection = 'sale_log_savs';
/** saleId -> product names and SKUs, from SaleImported: most sale events name only a product id. */
export const saleLogProductsCollection = 'sale_log_products';

export type SaleLogEntry = {
  _id: string; // the event id
  saleId: number;
  incrementId: string;
  position: number;
  revision: number;
  stream: string;
  type: SaleLogEvent['type'] | 'CustomerErased';
  occurredAt: string;
  recordedAt: string;
  actor: { kind: Actor['kind']; group: string | null; label: string | null };
  /** The user name the log shows when it differs from the actor (shipments are logged as `cron`). */
  logUser: string | null;
  correlationId: string;
  causationId: string;
  summary: Summary;
};

type SaleRef = { _id: number; saleId: number; incrementId: string };
type SaleProducts = { _id: number; products: { saleProductId: number; sku: string; name: string }[] };

const eventTypes = [...saleEventDefinitions, ...savEventDefinitions].map((definition) => definition.type);
const isSaleLogEvent = (event: StoredEvent): event is StoredEvent<SaleLogEvent> => (eventTypes as readonly string[]).includes(event.type);

const actorOf = (actor: Actor): SaleLogEntry['actor'] =>
  actor.kind === 'token' ? { kind: 'token', group: actor.group, label: actor.label } : { kind: actor.kind, group: null, label: null };

/** Records the lookups an event provides; kept as first written, so a replay changes nothing. */
const rememberReferences = async (event: StoredEvent<SaleLogEvent>, store: ReadStore): Promise<void> => {
  if (event.type === 'SaleImported') {
    const products = event.data.products.map(({ saleProductId, sku, name }) => ({ saleProductId, sku, name }));
    await insertOnce(store.collection<SaleProducts>(saleLogProductsCollection), { _id: event.data.saleId, products });
  }
  if (event.type === 'SavCreated') {
    const { savId, saleId, incrementId } = event.data;
    await insertOnce(store.collection<SaleRef>(saleLogSavsCollection), { _id: savId, saleId, incrementId });
  }
};

const saleOf = async (event: StoredEvent<SaleLogEvent>, store: ReadStore): Promise<{ saleId: number; incrementId: string }> => {
  if (event.type === 'SavCreated') return { saleId: event.data.saleId, incrementId: event.data.incrementId };
  if ('savId' in event.data) {
    const ref = await store.collection<SaleRef>(saleLogSavsCollection).findOne({ _id: event.data.savId });
    // SavCreated opens every SAV stream, so it was applied before: a miss is a broken log.
    if (!ref) throw new Error(`${event.type} of SAV ${event.data.savId} has no SavCreated before it`);
    return { saleId: ref.saleId, incrementId: ref.incrementId };
  }
  return { saleId: event.data.saleId, incrementId: incrementIdOfStream(event.streamName) };
};

const productNamesOf = async (saleId: number, store: ReadStore): Promise<ProductNames> => {
  const found = await store.collection<SaleProducts>(saleLogProductsCollection).findOne({ _id: saleId });
  return new Map((found?.products ?? []).map((p) => [p.saleProductId, { sku: p.sku, name: p.name }]));
};

const erasedSummary: Summary = {
  fr: 'Données personnelles du client effacées (RGPD, article 17)',
  en: "The customer's personal data erased (GDPR, article 17)",
};

const entryOf = (event: StoredEvent<SaleLogEvent> | CustomerErasedEvent, sale: { saleId: number; incrementId: string }, summary: Summary): SaleLogEntry => ({
  _id: event.id,
  saleId: sale.saleId,
  incrementId: sale.incrementId,
  position: event.position,
  revision: event.revision,
  stream: event.streamName,
  type: event.type,
  occurredAt: event.metadata.occurredAt,
  recordedAt: event.recordedAt,
  actor: actorOf(event.metadata.actor),
  logUser: 'logUser' in event.data ? event.data.logUser : null,
  correlationId: event.metadata.correlationId,
  causationId: event.metadata.causationId,
  summary,
});

export const saleLogProjection: Projection = {
  name: 'sale-log',
  // 2: rebuilt from events read with bounded amounts (an old log's 1e308 prices and totals).
  version: 2,
  eventTypes: [...eventTypes, 'CustomerErased'],
  collections: [saleLogCollection, saleLogSavsCollection, saleLogProductsCollection],
  async setup(store) {
    await store.collection(saleLogCollection).createIndex({ saleId: 1, position: 1 });
    await store.collection(saleLogCollection).createIndex({ incrementId: 1, position: 1 });
  },
  async apply(event, store) {
    if (isCustomerErased(event)) {
      const entries = store.collection<SaleLogEntry>(saleLogCollection);
      // The only entries whose line quotes personal data: address changes (summarise reads them so once erased).
      const summary = addressUpdatedSummary(erased);
      for (const sale of event.data.sales) {
        await entries.updateMany({ incrementId: sale.incrementId, type: 'SaleAddressUpdated' }, { $set: { summary } });
        // The erasure itself is part of each sale's history; one entry per sale, keyed by the event and the sale.
        await insertOnce(entries, { ...entryOf(event, sale, erasedSummary), _id: `${event.id}:${sale.saleId}`, type: 'CustomerErased', logUser: null });
      }
      return;
    }
    if (!isSaleLogEvent(event)) return;
    await rememberReferences(event, store);
    const sale = await saleOf(event, store);
    const products = event.streamName.startsWith('sale-') ? await productNamesOf(sale.saleId, store) : new Map<number, never>();
    // Keyed by the event id and only ever inserted: a second application changes nothing.
    await insertOnce(store.collection<SaleLogEntry>(saleLogCollection), entryOf(event, sale, summarise(event, products)));
  },
};
