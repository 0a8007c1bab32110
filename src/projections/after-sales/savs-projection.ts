import { assertNever } from '../../events/decider.ts';
import type { EventOfType, StoredEvent } from '../../events/registry.ts';
import { erased, erasedAt } from '../../events/schema/personal-data.ts';
import { isCustomerErased, type CustomerErasedEvent } from '../erasure.ts';
import { applyOnce, evolveOnce, type Projection } from '../projection.ts';
import type { ReadCollection, ReadStore } from '../read-store/read-store.ts';
import { attachedFile, failedFile, fetchedFile } from './sav-file-states.ts';
import { openedStep, withStatusChange } from './sav-status-changes.ts';
import { savSaleEmailsCollection, savsCollection, type SavDocument, type SavFileDocument, type SavSaleEmailDocument } from './sav-document.ts';

const eventTypes = [
  'SaleImported',
  'SavCreated',
  'SavAppointmentScheduled',
  'SavFileAttached',
  'SavFileFetched',
  'SavFileFetchFailed',
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

/** Rewrites one file of the SAV (the array is small; positional updates are not portable). */
const evolveFile = async (
  savs: ReadCollection<SavDocument>,
  event: StoredEvent<EventOfType<'SavFileFetched' | 'SavFileFetchFailed'>>,
  change: (file: SavFileDocument) => SavFileDocument,
): Promise<void> => {
  const { savId, fileId } = event.data;
  await evolveOnce(savs, savId, event.position, (sav) => sav && { ...sav, files: sav.files.map((file) => (file.fileId === fileId ? change(file) : file)) });
};

/** The fields of a SAV copied from sealed fields of its events (and the sale's e-mail when it gave none). */
const personalFields = ['complaint', 'customerEmailLower', 'appointment.phone', 'appointment.comment'];

const eraseCustomer = async (store: ReadStore, event: CustomerErasedEvent): Promise<void> => {
  const savs = store.collection<SavDocument>(savsCollection);
  for (const savId of event.data.savIds) await evolveOnce(savs, savId, event.position, (sav) => sav && { ...erasedAt(sav, personalFields) });
  const emails = store.collection<SavSaleEmailDocument>(savSaleEmailsCollection);
  for (const { saleId } of event.data.sales) await evolveOnce(emails, saleId, event.position, (sale) => sale && { ...sale, emailLower: erased });
};

/** The `savs` read model: the SAV status lookups of the chatbot and the planning's exclusions. */
export const savsProjection: Projection = {
  name: 'savs',
  // 2: each file's fetch state; the status, its times and its history (resolved, closed, reopened, cancelled).
  // 3: a file refused for its URL shows 'the file URL is not allowed', not the reason.
  version: 3,
  eventTypes: [...eventTypes, 'CustomerErased'],
  collections: [savsCollection, savSaleEmailsCollection],

  async setup(store: ReadStore) {
    const savs = store.collection<SavDocument>(savsCollection);
    await savs.createIndex({ incrementId: 1 });
    await savs.createIndex({ customerEmailLower: 1 });
    await savs.createIndex({ saleProductIds: 1 });
    // The fetch job's candidates.
    await savs.createIndex({ 'files.state': 1 });
  },

  async apply(stored: StoredEvent, store: ReadStore) {
    if (isCustomerErased(stored)) return eraseCustomer(store, stored);
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
      case 'SavFileAttached':
        await applyOnce(savs, event.data.savId, event.position, { $push: { files: attachedFile(event.data) } });
        return;
      case 'SavFileFetched':
        return evolveFile(savs, event, (file) => fetchedFile(file, event.data));
      case 'SavFileFetchFailed':
        return evolveFile(savs, event, (file) => failedFile(file, event.data));
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
