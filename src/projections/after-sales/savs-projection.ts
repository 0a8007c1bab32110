import { assertNever } from '../../events/decider.ts';
import type { EventOfType, StoredEvent } from '../../events/catalogue/catalogue.ts';
import { applyOnce, evolveOnce, type Projection } from '../projection.ts';
import { openedStep, withStatusChange } from './sav-status-changes.ts';
import type { ReadStore } from '../read-store/read-store.ts';
import {
  savSaleEmailsCollection,
  savsCollection,
  type SavDocument,
  type SavSaleEmailDocument,
} from './sav-document.ts';

const eventTypes = [
  'SaleImported',
  'SavCreated',
  'SavAppointmentScheduled',
  'SavFileAttached',
  'SavResolved',
  'SavClosed',
  'SavReopened',
  'SavCancelled',
] as const;
type Handled = EventOfType<(typeof eventTypes)[number]>;
const handled = new Set<string>(eventTypes);

const createSav = async (store: ReadStore, event: StoredEvent<EventOfType<'SavCreated'>>): Promise<void> => {
  const { savId, customerEmail, ...sav } = event.data;
  const saleEmail = await store.collection<SavSaleEmailDocument>(savSaleEmailsCollection).findOne({ _id: sav.saleId });
  await applyOnce(
    store.collection<SavDocument>(savsCollection),
    savId,
    event.position,
    {
      $set: {
        ...sav,
        customerEmailLower: customerEmail?.toLowerCase() ?? saleEmail?.emailLower ?? null,
        status: 'in_progress',
        statusChangedAt: sav.createdAt,
        resolution: null,
        resolvedAt: null,
        closedAt: null,
        reopenedAt: null,
        cancelledAt: null,
        cancellationReason: null,
        statusHistory: [openedStep(event)],
        appointment: null,
        files: [],
      },
    },
    { upsert: true },
  );
};

/** The `savs` read model: the SAV status lookups of the chatbot and the planning's exclusions. */
export const savsProjection: Projection = {
  name: 'savs',
  // 2: the status, its times and its history (resolved, closed, reopened, cancelled).
  version: 2,
  eventTypes,
  collections: [savsCollection, savSaleEmailsCollection],

  async setup(store: ReadStore) {
    const savs = store.collection<SavDocument>(savsCollection);
    await savs.createIndex({ incrementId: 1 });
    await savs.createIndex({ customerEmailLower: 1 });
    await savs.createIndex({ saleProductIds: 1 });
  },

  async apply(stored: StoredEvent, store: ReadStore) {
    if (!handled.has(stored.type)) return;
    const event = stored as StoredEvent<Handled>;
    const savs = store.collection<SavDocument>(savsCollection);
    switch (event.type) {
      case 'SaleImported': {
        const { saleId, customer } = event.data;
        const emailLower = customer.email.toLowerCase();
        await evolveOnce(store.collection<SavSaleEmailDocument>(savSaleEmailsCollection), saleId, event.position, () => ({ emailLower }));
        return;
      }
      case 'SavCreated':
        return createSav(store, event);
      case 'SavAppointmentScheduled': {
        const { savId, date, time, phone, comment, scheduledAt } = event.data;
        await applyOnce(savs, savId, event.position, { $set: { appointment: { date, time, phone, comment, scheduledAt } } });
        return;
      }
      case 'SavFileAttached': {
        const { savId, ...file } = event.data;
        await applyOnce(savs, savId, event.position, { $push: { files: file } });
        return;
      }
      case 'SavResolved':
      case 'SavClosed':
      case 'SavReopened':
      case 'SavCancelled':
        await evolveOnce(savs, event.data.savId, event.position, (sav) => sav && withStatusChange(sav, event));
        return;
      default:
        return assertNever(event);
    }
  },
};
