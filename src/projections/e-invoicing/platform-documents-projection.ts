import { assertNever } from '../../events/decider.ts';
import type { CreditNoteData, InvoiceData } from '../../events/invoicing/documents.ts';
import { eReportingDocumentId, finalPlatformStatuses } from '../../events/e-invoicing/events.ts';
import type { EventOfType, StoredEvent } from '../../events/registry.ts';
import { creditNoteAmounts, invoiceAmounts, sumAmounts } from '../../events/e-invoicing/e-reporting-amounts.ts';
import { evolveOnce, type Projection } from '../projection.ts';
import type { ReadStore } from '../read-store/read-store.ts';
import { platformDocumentsCollection, type PlatformDocument } from './platform-document.ts';

const eventTypes = ['InvoiceIssued', 'CreditNoteIssued', 'PlatformTransmissionSent', 'PlatformTransmissionFailed', 'PlatformStatusReceived'] as const;
type Handled = EventOfType<(typeof eventTypes)[number]>;

type Fields = Omit<PlatformDocument, '_id' | '_position'>;

const pending: PlatformDocument['transmission'] = {
  status: 'pending',
  attempts: 0,
  lastError: null,
  nextAttemptAt: null,
  sentAt: null,
  platformReference: null,
};

const sellerOf = (document: InvoiceData | CreditNoteData): PlatformDocument['seller'] => ({
  siren: document.seller.siret.slice(0, 9),
  vatNumber: document.seller.vatNumber,
  name: document.seller.name,
});

/**
 * What is owed to the approved platform (platform-document.ts): a business customer's document is an
 * e-invoice of its own; a consumer's is summed into its day's e-reporting. Each transmission and
 * platform status recorded since is shown on its document.
 */
export const platformDocumentsProjection: Projection = {
  name: 'platform-documents',
  version: 1,
  eventTypes,
  collections: [platformDocumentsCollection],

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
        const amounts = event.type === 'InvoiceIssued' ? invoiceAmounts(event.data.invoice) : creditNoteAmounts(event.data.creditNote);
        const { number } = event.data;
        if (data.businessCustomer) {
          await evolveOnce(documents, number, event.position, (current): Fields | null =>
            current
              ? null
              : {
                  kind: 'e-invoice',
                  date: data.date,
                  documents: [number],
                  amounts: {},
                  currency: data.currency,
                  seller: sellerOf(data),
                  transmission: pending,
                  platformStatus: null,
                  lifecycleOver: false,
                },
          );
          return;
        }
        await evolveOnce(documents, eReportingDocumentId(data.date), event.position, (current): Fields | null =>
          current?.documents.includes(number)
            ? null
            : {
                kind: 'e-reporting',
                date: data.date,
                documents: [...(current?.documents ?? []), number],
                amounts: sumAmounts(current?.amounts ?? {}, amounts),
                currency: data.currency,
                seller: sellerOf(data),
                transmission: current?.transmission ?? pending,
                platformStatus: current?.platformStatus ?? null,
                lifecycleOver: current?.lifecycleOver ?? false,
              },
        );
        return;
      }
      case 'PlatformTransmissionSent':
        await evolveOnce(
          documents,
          event.data.documentId,
          event.position,
          (current): Fields | null =>
            current && {
              ...current,
              transmission: {
                status: 'sent',
                attempts: event.data.attempt,
                lastError: current.transmission.lastError,
                nextAttemptAt: null,
                sentAt: event.data.sentAt,
                platformReference: event.data.platformReference,
              },
            },
        );
        return;
      case 'PlatformTransmissionFailed':
        await evolveOnce(
          documents,
          event.data.documentId,
          event.position,
          (current): Fields | null =>
            current && {
              ...current,
              transmission: {
                ...current.transmission,
                status: 'retrying',
                attempts: event.data.attempt,
                lastError: event.data.error,
                nextAttemptAt: event.data.nextAttemptAt,
              },
            },
        );
        return;
      case 'PlatformStatusReceived':
        await evolveOnce(
          documents,
          event.data.documentId,
          event.position,
          (current): Fields | null =>
            current && {
              ...current,
              transmission: { ...current.transmission, status: 'sent', nextAttemptAt: null },
              platformStatus: { status: event.data.status, reason: event.data.reason, receivedAt: event.data.receivedAt },
              lifecycleOver: finalPlatformStatuses.includes(event.data.status),
            },
        );
        return;
      default:
        return assertNever(event);
    }
  },
};
