import { describe } from 'vitest';
import type { EventStore } from '../../../src/events/store/event-store.ts';
import { appendContract } from './contract/append-contract.ts';
import { readContract } from './contract/read-contract.ts';
import { subscriptionContract } from './contract/subscription-contract.ts';

/**
 * The behaviour every adapter of the event-store port must have, written once. `open` gives a store
 * per test, fresh or not: the cases never assume the log is empty, only that the stream names they
 * generate are unused and that nobody else writes during the run, so they can also run against a
 * long-lived EventStoreDB.
 */
export function eventStoreContract(name: string, open: () => Promise<{ store: EventStore; cleanup: () => Promise<void> }>): void {
  describe(`${name} (event-store contract)`, () => {
    appendContract(open);
    readContract(open);
    subscriptionContract(open);
  });
}
