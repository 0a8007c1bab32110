import type { WriteDeps } from '../command-handler.ts';
import { fold, type Refusal } from '../decider.ts';
import { readDomainStream } from '../domain-store.ts';
import type { IdAllocator } from '../ids/id-allocator.ts';
import type { EventStore } from '../store/event-store.ts';
import type { SaleEvent } from './events.ts';
import { saleStreamName } from './events.ts';
import { evolve, initialState, type SaleState } from './state.ts';

/** What the sale's application handlers need: the write side, and the ID sequences. */
export type SalesDeps = WriteDeps & { ids: IdAllocator };

/** A handler's answer when the sale refused the command (or, for appointments, the planning did). */
export type Refused = { status: 'refused'; refusal: Refusal };

/** The sale as its stream stands now; null when no order with this increment ID was imported. */
export const readSale = async (eventStore: EventStore, incrementId: string): Promise<SaleState> => {
  const { events } = await readDomainStream<SaleEvent>(eventStore, saleStreamName(incrementId));
  return fold({ initialState, evolve }, events);
};

/** The instant a command is decided at, as commands carry it. */
export const nowIso = (deps: Pick<WriteDeps, 'clock'>): string => deps.clock.now().toISOString();
