import { assertNever } from '../../events/decider.ts';
import { finalPlatformStatuses } from '../../events/e-invoicing/events.ts';
import type { EventOfType, StoredEvent } from '../../events/registry.ts';
import { evolveOnce, type Projection } from '../projection.ts';
import type { ReadCollection, ReadStore } from '../read-store/read-store.ts';
import { applyCatalogue, applyLineCancelled, applySaleImported, pendingTransmission } from './e-reporting-days.ts';
import { eReportingSalesCollection, eReportingSkusCollection } from './e-reporting-sources.ts';
import { platformDocumentsCollection, type PlatformDocument } from './platform-document.ts';

const eventTypes = [
  'InvoiceIssued',
  'CreditNoteIssued',
  'SaleImported',
  'SaleProductCancelled',
  'ProductCatalogued',
  'ProductUpdated',
  'PlatformTransmissionSent',
  'PlatformTransmissionFailed',
  'PlatformStatusReceived',
] as const;
type Handled = EventOfType<(typeof eventTypes)[number]>;

type Fields = Omit<PlatformDocument, '_id' | '_position'>;

/** A transmission or a status, shown on the document it is about (nothing for a document unknown here). */
const changeDocument = async (
  documents: ReadCollection<PlatformDocument>,
  event: StoredEvent<EventOfType<'PlatformTransmissionSent' | 'PlatformTransmissionFailed' | 'PlatformStatusReceived'>>,
  change: (current: PlatformDocument) => Partial<Fields>,
): Promise<void> => {
  await evolveOnce(documents, event.data.documentId, event.position, (current) => current && { ...current, ...change(current) });
};

/**
 * What is owed to the approved platform (platform-document.ts): a business customer's invoice or credit
 * note is an e-invoice of its own; a consumer's sales, whether or not anyone asks for their invoices, are
 * summed into the day they were recorded, and their cancellations taken from theirs (e-reporting-days.ts);
 * consumers' invoices and credit notes add nothing, their sales being counted already. Each transmission
 * and platform status recorded since is shown on its document.
 */
export const platformDocumentsProjection: Projection = {
  name: 'platform-documents',
  version: 1,
  eventTypes,
  collections: [platformDocumentsCollection, eReportingSkusCollection, eReportingSalesCollection],

  async setup(store: ReadStore) {
    await store.collection<PlatformDocument>(platformDocumentsCollection).createIndex({ 'transmission.status': 1, date: 1 });
  },

  async apply(stored: StoredEvent, store: ReadStore) {
    const documents = store.collection<PlatformDocument>(platformDocumentsCollection);
    const event = stored as StoredEvent<Handled>;
    switch (event.type) {
      case 'InvoiceIssued':
      case 'CreditNoteIssued': {
        const data = event.type === 'InvoiceIssued' ? event.data.invoice : event.data.creditNote;
        if (!data.businessCustomer) return;
        const { number } = event.data;
        await evolveOnce(documents, number, event.position, (current): Fields | null =>
          current
            ? null
            : {
                kind: 'e-invoice',
                date: data.date,
                documents: [number],
                sales: 0,
                cancelledLines: 0,
                recordedAfterSending: 0,
                amounts: {},
                currency: data.currency,
                transmission: pendingTransmission,
                platformStatus: null,
                lifecycleOver: false,
              },
        );
        return;
      }
      case 'SaleImported':
        return applySaleImported(event, store);
      case 'SaleProductCancelled':
        return applyLineCancelled(event, store);
      case 'ProductCatalogued':
      case 'ProductUpdated':
        return applyCatalogue(event, store);
      case 'PlatformTransmissionSent':
        return changeDocument(documents, event, (current) => ({
          transmission: {
            status: 'sent',
            attempts: event.data.attempt,
            lastError: current.transmission.lastError,
            nextAttemptAt: null,
            sentAt: event.data.sentAt,
            platformReference: event.data.platformReference,
          },
        }));
      case 'PlatformTransmissionFailed':
        return changeDocument(documents, event, (current) => ({
          transmission: {
            ...current.transmission,
            status: 'retrying',
            attempts: event.data.attempt,
            lastError: event.data.error,
            nextAttemptAt: event.data.nextAttemptAt,
          },
        }));
      case 'PlatformStatusReceived':
        return changeDocument(documents, event, (current) => ({
          transmission: { ...current.transmission, status: 'sent', nextAttemptAt: null },
          platformStatus: { status: event.data.status, reason: event.data.reason, receivedAt: event.data.receivedAt },
          lifecycleOver: finalPlatformStatuses.includes(event.data.status),
        }));
      default:
        return assertNever(event);
    }
  },
};
