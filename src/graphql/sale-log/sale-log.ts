import { savEventDefinitions, savStreamName } from '../../events/after-sales/events.ts';
import { customerErasureStreamName } from '../../events/customers/events.ts';
import { readDomainStream } from '../../events/domain-store.ts';
import type { EventOfType, StoredEvent } from '../../events/registry.ts';
import { saleEventDefinitions, saleStreamName } from '../../events/sales/events.ts';
import type { Actor, EventStore } from '../../events/store/event-store.ts';
import type { ReadStore } from '../../projections/read-store/read-store.ts';
import type { SaleDocument } from '../../projections/sales/sale-document.ts';
import { findSaleById } from '../../projections/sales/queries.ts';
import { summarise, type ProductNames, type SaleLogEvent, type Summary } from './sale-log-summary.ts';

/**
 * The sale log: the history of a sale and of its SAVs, one entry per event, in log order, with a
 * readable line in French and English. It is read from the sale's own streams (the sale's, each of its
 * SAVs', and its customer's erasure if any), which already are its log: no read model copies them, so
 * the log costs nothing while orders are imported or read models rebuilt, and a request reads a few
 * short streams by name, whatever the size of the whole log. The `sales` read model names the streams.
 *
 * Read through the event store that opens sealed fields, an erased customer's fields read `[erased]`:
 * the lines quoting them (address changes) say so, as they would have been written after the erasure.
 */

export type SaleLogEntry = {
  eventId: string;
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

/** What the log needs of a sale: the streams it names. */
export type LoggedSale = Pick<SaleDocument, '_id' | 'incrementId' | 'savIds' | 'erasureKeyId'>;

const erasedSummary: Summary = {
  fr: 'Données personnelles du client effacées (RGPD, article 17)',
  en: "The customer's personal data erased (GDPR, article 17)",
};

const loggedTypes: ReadonlySet<string> = new Set([...saleEventDefinitions, ...savEventDefinitions].map((definition) => definition.type));

const actorOf = (actor: Actor): SaleLogEntry['actor'] =>
  actor.kind === 'token' ? { kind: 'token', group: actor.group, label: actor.label } : { kind: actor.kind, group: null, label: null };

/** The names and SKUs of the sale's products, from its import: most sale events name only a product id. */
const productNamesOf = (events: readonly StoredEvent<SaleLogEvent>[]): ProductNames => {
  const imported = events.find((event): event is StoredEvent<EventOfType<'SaleImported'>> => event.type === 'SaleImported');
  return new Map((imported?.data.products ?? []).map((p) => [p.saleProductId, { sku: p.sku, name: p.name }]));
};

/** The sale's log, oldest first; empty when its stream holds nothing yet (a read model ahead of nothing). */
export const saleLogOf = async (eventStore: EventStore, sale: LoggedSale): Promise<SaleLogEntry[]> => {
  const [saleStream, savStreams, erasure] = await Promise.all([
    readDomainStream<SaleLogEvent>(eventStore, saleStreamName(sale.incrementId)),
    Promise.all(sale.savIds.map((savId) => readDomainStream<SaleLogEvent>(eventStore, savStreamName(savId)))),
    sale.erasureKeyId ? readDomainStream<EventOfType<'CustomerErased'>>(eventStore, customerErasureStreamName(sale.erasureKeyId)) : undefined,
  ]);
  const products = productNamesOf(saleStream.events);
  const entry = (event: StoredEvent<SaleLogEvent | EventOfType<'CustomerErased'>>, summary: Summary): SaleLogEntry => ({
    eventId: event.id,
    saleId: sale._id,
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
  const entries = [saleStream, ...savStreams].flatMap(({ events }) =>
    events.filter((event) => loggedTypes.has(event.type)).map((event) => entry(event, summarise(event, products))),
  );
  for (const event of erasure?.events ?? []) if (event.type === 'CustomerErased') entries.push(entry(event, erasedSummary));
  return entries.sort((a, b) => a.position - b.position);
};

/** The log of the sale with this ID; null when the `sales` read model knows no such sale. */
export const saleLogOfSaleId = async (readStore: ReadStore, eventStore: EventStore, saleId: number): Promise<SaleLogEntry[] | null> => {
  const sale = await findSaleById(readStore, saleId);
  return sale ? saleLogOf(eventStore, sale) : null;
};
