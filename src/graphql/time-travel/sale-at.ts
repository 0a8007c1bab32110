import type { StoredEvent } from '../../events/registry.ts';
import { readDomainStream } from '../../events/domain-store.ts';
import { saleStreamName, type SaleEvent } from '../../events/sales/events.ts';
import { evolve, initialState, type SaleState } from '../../events/sales/state.ts';
import type { EventStore } from '../../events/store/event-store.ts';
import type { SaleSnapshot } from './sale-snapshot-type.ts';

/** A moment of the log: an instant (events that occurred at or before it) or a global position (inclusive). */
export type AsOf = { at: string } | { position: number };

const isBefore =
  (asOf: AsOf) =>
  (event: StoredEvent<SaleEvent>): boolean =>
    'position' in asOf ? event.position <= asOf.position : Date.parse(event.metadata.occurredAt) <= Date.parse(asOf.at);

/**
 * Folds the sale's stream up to that moment with the write side's own evolve, so the past state is
 * the one its decisions were taken against. Null when the sale did not exist yet.
 */
export const saleAt = async (eventStore: EventStore, incrementId: string, asOf: AsOf): Promise<SaleSnapshot | null> => {
  const { events } = await readDomainStream<SaleEvent>(eventStore, saleStreamName(incrementId));
  // A stream's events are in log order, so the ones before the moment are a prefix.
  const cut = events.findIndex((event) => !isBefore(asOf)(event));
  const folded = cut < 0 ? events : events.slice(0, cut);
  const last = folded.at(-1);
  const sale: SaleState = folded.reduce<SaleState>(evolve, initialState());
  if (!last || sale === null) return null;
  return { sale, position: last.position, revision: last.revision, occurredAt: last.metadata.occurredAt };
};
