import type { z } from 'zod';
import type { savFileFetchFailure, savFileKind } from './events.ts';

/**
 * Commands of a SAV's stream. Each carries the instant it is decided at (`at`) and everything else
 * it needs (the sale, the planning's local date), resolved by its application handler, so that
 * deciding stays pure.
 */

/**
 * The sale a SAV is about, resolved by the handler. `saleProductIds` lists all the products of the
 * sale and `products` their SKU and name, copied into the SAV for its read models.
 */
export type SavSale = {
  saleId: number;
  incrementId: string;
  saleProductIds: readonly number[];
  products: readonly SavProduct[];
  customerEmail: string | null;
};
export type SavProduct = { saleProductId: number; sku: string; name: string };
export type SavAppointment = { date: string; time: string; phone: string | null; comment: string | null };
/** A file given at creation by its URL, fetched and stored later; or, with `stored`, a file stored with the request (a data URL). */
export type SavFileKind = z.infer<typeof savFileKind>;
export type SavFileLink = { fileId: string; kind: SavFileKind; category: string; sourceUrl: string | null; fileName: string; stored?: SavStoredFile };
export type SavStoredFile = { storedPath: string; contentType: string; size: number };

export type CreateSav = {
  type: 'CreateSav';
  savId: number;
  sale: SavSale;
  /** The products the SAV covers: at least one, all of `sale`. */
  saleProductIds: readonly number[];
  complaint: string;
  complaintName: string;
  savType: string;
  channel: 'core' | 'chatbot';
  appointment: SavAppointment | null;
  files: readonly SavFileLink[];
  at: string;
};
export type ScheduleSavAppointment = { type: 'ScheduleSavAppointment'; at: string } & SavAppointment;
export type AttachSavFile = {
  type: 'AttachSavFile';
  fileId: string;
  kind: SavFileKind;
  category: string;
  sourceUrl: string | null;
  storedPath: string | null;
  fileName: string;
  contentType: string | null;
  size: number | null;
  at: string;
};

/** The status changes (sav-transitions.ts); `today` is the planning's local date. */
export type ResolveSav = { type: 'ResolveSav'; resolution: string; at: string };
export type CloseSav = { type: 'CloseSav'; today: string; at: string };
export type ReopenSav = { type: 'ReopenSav'; reason: string; at: string };
export type CancelSav = { type: 'CancelSav'; reason: string; today: string; at: string };
export type SavTransition = ResolveSav | CloseSav | ReopenSav | CancelSav;

/** The fetch job's outcomes for a file given by URL (sav-file-fetch.ts). */
export type SavFileFetchFailure = z.infer<typeof savFileFetchFailure>;
export type RecordSavFileFetched = {
  type: 'RecordSavFileFetched';
  fileId: string;
  attempt: number;
  kind: SavFileKind;
  storedPath: string;
  contentType: string;
  size: number;
  at: string;
};
export type RecordSavFileFetchFailed = {
  type: 'RecordSavFileFetchFailed';
  fileId: string;
  attempt: number;
  reason: SavFileFetchFailure;
  error: string;
  /** The retry time after the back-off; the decider drops it when the failure is final. */
  nextAttemptAt: string;
  at: string;
};

export type SavCommand = CreateSav | ScheduleSavAppointment | AttachSavFile | SavTransition | RecordSavFileFetched | RecordSavFileFetchFailed;
