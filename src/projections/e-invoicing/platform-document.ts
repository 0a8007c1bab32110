import type { PlatformStatus, TransmissionKind } from '../../events/e-invoicing/events.ts';
import type { AmountsByCategory } from '../../events/e-invoicing/e-reporting-amounts.ts';
import type { Tracked } from '../projection.ts';

/**
 * `platform_documents`: what the service owes the approved platform and how far each is, one document
 * per e-invoice (a business customer's invoice or credit note, by its number) and per day of consumer
 * sales (`ER-<date>`, the day's amounts summed as its sales and cancellations were recorded, see
 * events/e-invoicing/e-reporting-amounts.ts). The outbox (jobs/platform-transmissions.ts) reads here
 * what is due, then its stream to be sure.
 */

export const platformDocumentsCollection = 'platform_documents';

export type PlatformDocument = Tracked & {
  _id: string;
  kind: TransmissionKind;
  /** The issue date of an e-invoice, the day an e-reporting reports. */
  date: string;
  /** The document of record an e-invoice carries, its number; empty for an e-reporting, which counts sales. */
  documents: string[];
  /** E-reporting: how many consumer sales recorded that day it counts (a count, not their list: a day may have thousands); 0 for an e-invoice. */
  sales: number;
  /** E-reporting: how many lines cancelled that day it takes away; 0 for an e-invoice. */
  cancelledLines: number;
  /**
   * E-reporting: how many of its sales and cancellations were counted after the day was handed to the
   * platform (recorded late, past the outbox's grace period): in `amounts`, not in what the platform
   * has. 0 but for that edge (docs/production.md).
   */
  recordedAfterSending: number;
  /** E-reporting: the day's tax-included amounts by category and rate; empty for an e-invoice. */
  amounts: AmountsByCategory;
  currency: string;
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
