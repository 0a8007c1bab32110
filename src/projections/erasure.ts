import type { EventOfType, StoredEvent } from '../events/registry.ts';

/**
 * What the read models do with `CustomerErased`: the documents built before it hold the customer's
 * data in clear; each projection rewrites the fields it copied from sealed fields exactly as a rebuild
 * would build them from the events, which now read as `[erased]` (the same function, personal-data.ts
 * `erasedAt`, on the same paths). Idempotent, like every change a projection makes.
 */

export type CustomerErasedEvent = StoredEvent<EventOfType<'CustomerErased'>>;

export const isCustomerErased = (event: StoredEvent): event is CustomerErasedEvent => event.type === 'CustomerErased';
