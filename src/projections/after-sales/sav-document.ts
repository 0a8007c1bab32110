import type { z } from 'zod';
import type { savChannel, savFileKind, savStatusValues } from '../../events/after-sales/events.ts';
import type { Tracked } from '../projection.ts';

/** The `savs` read model: one document per SAV, `_id` = savId. */

export const savsCollection = 'savs';
/** The e-mail of each sale, kept by this projection to file a SAV under its customer when the request gave none. */
export const savSaleEmailsCollection = 'sav_sale_emails';

export type SavFileDocument = {
  fileId: string;
  kind: z.infer<typeof savFileKind>;
  category: string;
  sourceUrl: string | null;
  storedPath: string | null;
  fileName: string;
  contentType: string | null;
  size: number | null;
  attachedAt: string;
  /** `pending`: a link the fetch job has (still) to fetch; `stored`: under storedPath; `failed`: given up. */
  state: 'pending' | 'stored' | 'failed';
  /** Fetch attempts made (0 for a file stored with its request or uploaded). */
  attempts: number;
  lastError: string | null;
  /** When the fetch job tries next, a UTC instant; null unless pending. */
  nextAttemptAt: string | null;
};

export type SavStatus = z.infer<typeof savStatusValues>;

/** One step of a SAV's life, its creation first: who made it (the token's label; null for the system) and its text. */
export type SavStatusChange = {
  status: SavStatus;
  at: string;
  by: string | null;
  /** The resolution, or why it was reopened or cancelled; null for the creation and a closing. */
  note: string | null;
};

export type SavDocument = Tracked & {
  _id: number;
  saleId: number;
  incrementId: string;
  /** The requester's e-mail, else the sale's; null when neither is known. */
  customerEmailLower: string | null;
  saleProductIds: number[];
  products: { saleProductId: number; sku: string; name: string }[];
  complaint: string;
  complaintName: string;
  savType: string;
  channel: z.infer<typeof savChannel>;
  status: SavStatus;
  createdAt: string;
  /** When the status last changed: the creation until a first change. */
  statusChangedAt: string;
  /** What was done, with its time, while the SAV is resolved or closed; null otherwise (a reopened SAV has none yet). */
  resolution: string | null;
  resolvedAt: string | null;
  /** Set while the SAV is closed. */
  closedAt: string | null;
  /** The last reopening, kept once done. */
  reopenedAt: string | null;
  /** Set once cancelled (for good), with why. */
  cancelledAt: string | null;
  cancellationReason: string | null;
  statusHistory: SavStatusChange[];
  appointment: { date: string; time: string; phone: string | null; comment: string | null; scheduledAt: string } | null;
  files: SavFileDocument[];
};

export type SavSaleEmailDocument = Tracked & { _id: number; emailLower: string };
