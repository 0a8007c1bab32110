import { assertNever } from '../../events/decider.ts';
import type { EventOfType, StoredEvent } from '../../events/registry.ts';
import { applyOnce, type Projection } from '../projection.ts';
import type { ReadStore } from '../read-store/read-store.ts';
import {
  bookingKey,
  holidaysCollection,
  planningSettingsCollection,
  planningSlotsCollection,
  slotId,
  type HolidayDocument,
  type PlanningSettingsDocument,
  type PlanningSlotDocument,
} from './planning-documents.ts';

const eventTypes = ['PlanningConfigured', 'HolidayDeclared', 'HolidayRemoved', 'PlanningSlotBooked', 'PlanningSlotReleased'] as const;
type Handled = EventOfType<(typeof eventTypes)[number]>;
const handled = new Set<string>(eventTypes);

type SlotEvent = StoredEvent<EventOfType<'PlanningSlotBooked' | 'PlanningSlotReleased'>>;

/** Adds or removes a booking; the count is recomputed from the bookings, so a booking never counts twice. */
const changeSlot = async (store: ReadStore, event: SlotEvent): Promise<void> => {
  const slots = store.collection<PlanningSlotDocument>(planningSlotsCollection);
  const { planningType, date, time, booking } = event.data;
  const id = slotId(planningType, date, time);
  const slot = await slots.findOne({ _id: id });
  if (slot && slot._position >= event.position) return;
  const key = bookingKey(booking);
  const others = (slot?.bookings ?? []).filter((held) => held !== key);
  const bookings = event.type === 'PlanningSlotBooked' ? [...others, key] : others;
  // A slot emptied by its last release stays, with count 0, to keep its position.
  await applyOnce(slots, id, event.position, { $set: { planningType, date, time, bookings, count: bookings.length } }, { upsert: true });
};

/** The planning read models: the SAV and delivery appointment pickers and the occupancy query. */
export const planningProjection: Projection = {
  name: 'planning',
  version: 1,
  eventTypes,
  collections: [planningSettingsCollection, holidaysCollection, planningSlotsCollection],

  async setup(store: ReadStore) {
    await store.collection<PlanningSlotDocument>(planningSlotsCollection).createIndex({ planningType: 1, date: 1 });
  },

  async apply(stored: StoredEvent, store: ReadStore) {
    if (!handled.has(stored.type)) return;
    const event = stored as StoredEvent<Handled>;
    const holidays = store.collection<HolidayDocument>(holidaysCollection);
    switch (event.type) {
      case 'PlanningConfigured': {
        const { planningType, ...settings } = event.data;
        const collection = store.collection<PlanningSettingsDocument>(planningSettingsCollection);
        await applyOnce(collection, planningType, event.position, { $set: settings }, { upsert: true });
        return;
      }
      case 'HolidayDeclared': {
        const { date, label, declaredAt } = event.data;
        await applyOnce(holidays, date, event.position, { $set: { label, declared: true, declaredAt, removedAt: null } }, { upsert: true });
        return;
      }
      case 'HolidayRemoved':
        await applyOnce(holidays, event.data.date, event.position, { $set: { declared: false, removedAt: event.data.removedAt } });
        return;
      case 'PlanningSlotBooked':
      case 'PlanningSlotReleased':
        return changeSlot(store, event);
      default:
        return assertNever(event);
    }
  },
};
