import { randomUUID } from 'node:crypto';
import type { CommandContext } from '../command-context.ts';
import { recordedNothing } from '../recorded-nothing.ts';
import { handleCommand, writtenBy, writtenTogether, type Written } from '../command-handler.ts';
import type { Refusal } from '../decider.ts';
import type { IdAllocator } from '../ids/id-allocator.ts';
import type { PlanningDeps } from '../planning/planning-handlers.ts';
import { bookSlot, checkSlot, releaseSlot } from '../planning/slot-booking.ts';
import { savStreamName } from './events.ts';
import type { CreateSav, SavAppointment, SavFileLink, SavSale, SavStoredFile } from './sav-commands.ts';
import { checkSavProducts, savDecider } from './sav-decider.ts';

/** The content of a file given with the request (a data URL), checked at the edge. */
export type InlineSavFile = { bytes: Uint8Array; contentType: string; extension: string };

/** Where the files given with a request are written, under the SAV's folder (src/files/sav-files.ts). */
export type SavFileStore = {
  store: (savId: number, file: InlineSavFile & { fileName: string }) => Promise<SavStoredFile>;
  discard: (file: SavStoredFile) => Promise<void>;
};

export type CreateSavDeps = PlanningDeps & {
  ids: IdAllocator;
  /** The sale holding these products (read models or the sale stream), or null when no sale has them. */
  loadSale: (saleProductIds: readonly number[]) => Promise<SavSale | null>;
  /** Needed when a file comes with its content. */
  files?: SavFileStore;
};

export type CreateSavInput = {
  saleProductIds: readonly number[];
  complaint: string;
  complaintName: string;
  savType: string;
  channel: CreateSav['channel'];
  /** Given only when both a date and a time were asked for. */
  appointment: SavAppointment | null;
  /** Files given by URL, or with their content (stored before the SAV is recorded); an ID is chosen for those without one. */
  files: readonly (Omit<SavFileLink, 'fileId' | 'stored'> & { fileId?: string; content?: InlineSavFile })[];
};

export type CreateSavResult = { status: 'created'; savId: number; written: Written | undefined } | { status: 'refused'; refusal: Refusal };

/**
 * Creates a SAV. The appointment's place is taken before the SAV is recorded, so that a full slot, a
 * holiday or a closed day refuses the whole creation and no SAV exists without its appointment; if
 * recording the SAV then surely fails, the place and the stored files are given back.
 */
export const createSav = async (deps: CreateSavDeps, input: CreateSavInput, context: CommandContext): Promise<CreateSavResult> => {
  const found = input.saleProductIds.length > 0 ? await deps.loadSale(input.saleProductIds) : null;
  const invalid = checkSavProducts(found, input.saleProductIds);
  if (invalid) return { status: 'refused', refusal: invalid };
  // Products checked against no sale are all unknown, so a sale was found.
  const sale = found as SavSale;

  const { appointment } = input;
  if (appointment) {
    // Refused before an ID is reserved: a refused request records nothing at all.
    // No SAV has ID 0: the check is made for a booking that holds no place yet.
    const bookable = await checkSlot(deps, { planningType: 'sav', date: appointment.date, time: appointment.time, ref: { kind: 'sav', savId: 0 } });
    if (!bookable.ok) return { status: 'refused', refusal: bookable.refusal };
  }

  const [savId] = await deps.ids.next('sav');
  if (savId === undefined) throw new Error('The ID allocator returned no SAV ID');
  const ref = { kind: 'sav' as const, savId };
  let booking: { written?: Written } | undefined;
  if (appointment) {
    const booked = await bookSlot(deps, { planningType: 'sav', date: appointment.date, time: appointment.time, ref }, context);
    if (!booked.ok) return { status: 'refused', refusal: booked.refusal };
    booking = booked;
  }
  const giveBack = async () => {
    if (appointment) await releaseSlot(deps, { planningType: 'sav', date: appointment.date, time: appointment.time, ref }, context);
  };

  // Written before the events that name them, so a recorded SAV never points to a missing file.
  const stored: SavStoredFile[] = [];
  const discardStored = async () => {
    for (const file of stored) await deps.files?.discard(file);
  };
  const store = async (content: InlineSavFile, fileName: string): Promise<SavStoredFile> => {
    if (!deps.files) throw new Error('createSav was given file contents without a file store');
    const kept = await deps.files.store(savId, { ...content, fileName });
    stored.push(kept);
    return kept;
  };
  const files: SavFileLink[] = [];
  try {
    for (const { content, fileId = randomUUID(), ...file } of input.files) {
      files.push(content ? { ...file, fileId, stored: await store(content, file.fileName) } : { ...file, fileId });
    }
  } catch (error) {
    await discardStored();
    await giveBack();
    throw error;
  }

  const command: CreateSav = {
    type: 'CreateSav',
    savId,
    sale,
    saleProductIds: input.saleProductIds,
    complaint: input.complaint,
    complaintName: input.complaintName,
    savType: input.savType,
    channel: input.channel,
    appointment,
    files,
    at: deps.clock.now().toISOString(),
  };
  let outcome;
  try {
    // A new stream: the handler appends with the expected revision `no_stream`.
    outcome = await handleCommand(deps, savStreamName(savId), savDecider, command, context);
    if (outcome.status === 'refused') {
      await discardStored();
      await giveBack();
      return { status: 'refused', refusal: outcome.refusal };
    }
  } catch (error) {
    // Only a failure sure to have recorded nothing gives back; after any other, the SAV may be recorded
    // all the same, with its appointment and its files: both are kept (at worst, a place and files no SAV names).
    if (recordedNothing(error)) {
      await discardStored();
      await giveBack();
    }
    throw error;
  }
  return { status: 'created', savId, written: writtenTogether(booking?.written, writtenBy(outcome)) };
};
