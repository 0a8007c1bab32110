import type { PlatformStatus, TransmissionKind } from '../../events/e-invoicing/events.ts';
import type { AmountsByCategory } from '../../events/e-invoicing/e-reporting-amounts.ts';
import type { Tracked } from '../projection.ts';

/**
 * `platform_documents`: what the service owes the approved platform and how far each is, one document
 * per e-invoice (a business customer's invoice or credit note, by its number) and per day of consumer
 * sales (`ER-<date>`, the day's amounts summed as its documents were issued). The outbox
 * (jobs/platform-transmissions.ts) reads here what is due, then its stream to be sure.
 */

export const platformDocumentsCollection = 'platform_documents';

export type PlatformDocument = Tracked & {
  _id: string;
  kind: TransmissionKind;
  /** The issue date of an e-invoice, the day an e-reporting reports. */
  date: string;
  /** The documents of record it carries: the e-invoice's number, or the numbers the day's amounts come from. */
  documents: string[];
  /** E-reporting: the day's tax-included amounts by category and rate; empty for an e-invoice. */
  amounts: AmountsByCategory;
  currency: string;
  /** E-reporting: the seller the day's documents name. */
  seller: { siren: string; vatNumber: string; name: string };
  transmission: {
    status: 'pending' | 'retrying' | 'sent';
    attempts: number;
    lastError: string | null;
    nextAttemptAt: string | null;
    sentAt: string | null;
    platformReference: string | null;
  };
  platformStatus: { status: PlatformStatus; reason: string | null; receivedAt: string } | null;
  /** The platform gave it a status that ends its lifecycle (finalPlatformStatuses): its status is read no more. */
  lifecycleOver: boolean;
};
