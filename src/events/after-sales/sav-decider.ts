import type { z } from 'zod';
import { assertNever, Refusal, type Decider } from '../decider.ts';
import type { SavEvent, savFileKind, savStatusValues } from './events.ts';
import {
  decideFetched,
  decideFetchFailed,
  evolveFetches,
  type RecordSavFileFetched,
  type RecordSavFileFetchFailed,
  type SavFileFetch,
} from './sav-file-fetch.ts';
import { decideTransition, evolveTransition, statusConflict, type SavTransition } from './sav-transitions.ts';

/** A SAV (after-sales request), stream `sav-<savId>`. */

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
export type SavCommand = CreateSav | ScheduleSavAppointment | AttachSavFile | SavTransition | RecordSavFileFetched | RecordSavFileFetchFailed;

/** The SAV statuses; `in_progress` (the interface's value) as long as it is open. See sav-transitions.ts. */
export type SavStatus = z.infer<typeof savStatusValues>;
export type SavSlot = { date: string; time: string };

export type ExistingSav = {
  exists: true;
  savId: number;
  saleId: number;
  saleProductIds: readonly number[];
  status: SavStatus;
  /** The planning place the SAV holds; a past one is kept when the SAV ends. */
  appointment: { date: string; time: string; phone: string | null; comment: string | null } | null;
  /** The place the SAV gave back when it ended (closed or cancelled), until it is reopened. */
  releasedAppointment: SavSlot | null;
  fileIds: ReadonlySet<string>;
  /** The files given by URL and their fetch (see sav-file-fetch.ts). */
  fetches: ReadonlyMap<string, SavFileFetch>;
};
export type SavState = { exists: false } | ExistingSav;

export type SavRefusalCode = 'sav_exists' | 'unknown_sale_product' | 'no_product' | 'unknown_sav' | 'unknown_sav_file' | 'sav_status_conflict';

export const savStatus = (state: SavState): SavStatus | null => (state.exists ? state.status : null);

/**
 * The products a SAV may cover: at least one, all on the sale (`sale` null: no sale has them). Shared
 * with the handler, which checks them before it allocates an ID or books a slot.
 */
export const checkSavProducts = (sale: SavSale | null, saleProductIds: readonly number[]): Refusal<SavRefusalCode> | null => {
  if (saleProductIds.length === 0) return new Refusal('no_product', 'A SAV covers at least one sale product');
  // A product with no SKU and name known on the sale cannot be described in the SAV: it counts as unknown.
  const unknown = saleProductIds.filter((id) => !sale?.saleProductIds.includes(id) || !sale.products.some((product) => product.saleProductId === id));
  if (unknown.length > 0) {
    return new Refusal('unknown_sale_product', 'These products are not on one known sale', { saleId: sale?.saleId ?? null, saleProductIds: unknown });
  }
  return null;
};

const create = (command: CreateSav, state: SavState): SavEvent[] | Refusal<SavRefusalCode> => {
  if (state.exists) return new Refusal('sav_exists', 'This SAV already exists', { savId: command.savId });
  const refusal = checkSavProducts(command.sale, command.saleProductIds);
  if (refusal) return refusal;
  const { savId, sale, appointment, at } = command;
  const saleProductIds = [...new Set(command.saleProductIds)];
  const products = saleProductIds.flatMap((id) => {
    const product = sale.products.find((candidate) => candidate.saleProductId === id);
    return product ? [{ saleProductId: id, sku: product.sku, name: product.name }] : [];
  });
  const created: SavEvent = {
    type: 'SavCreated',
    data: {
      savId,
      saleId: sale.saleId,
      incrementId: sale.incrementId,
      saleProductIds,
      products,
      complaint: command.complaint,
      complaintName: command.complaintName,
      savType: command.savType,
      channel: command.channel,
      customerEmail: sale.customerEmail,
      createdAt: at,
    },
  };
  const scheduled: SavEvent[] = appointment ? [{ type: 'SavAppointmentScheduled', data: { savId, ...appointment, previous: null, scheduledAt: at } }] : [];
  const attached = command.files.map(({ stored, ...file }): SavEvent => ({
    type: 'SavFileAttached',
    data: { savId, ...file, storedPath: stored?.storedPath ?? null, contentType: stored?.contentType ?? null, size: stored?.size ?? null, attachedAt: at },
  }));
  return [created, ...scheduled, ...attached];
};

const schedule = (command: ScheduleSavAppointment, state: SavState): SavEvent[] | Refusal<SavRefusalCode> => {
  if (!state.exists) return new Refusal('unknown_sav', 'No SAV with this ID');
  if (state.status !== 'in_progress') return statusConflict(state, 'it cannot be given an appointment', ['in_progress']);
  const { date, time, phone, comment, at } = command;
  const current = state.appointment;
  if (current && current.date === date && current.time === time && current.phone === phone && current.comment === comment) return [];
  const previous = current ? { date: current.date, time: current.time } : null;
  return [{ type: 'SavAppointmentScheduled', data: { savId: state.savId, date, time, phone, comment, previous, scheduledAt: at } }];
};

/** Files are taken whatever the status: a photo sent late still documents a SAV that may be reopened. */
const attach = (command: AttachSavFile, state: SavState): SavEvent[] | Refusal<SavRefusalCode> => {
  if (!state.exists) return new Refusal('unknown_sav', 'No SAV with this ID');
  if (state.fileIds.has(command.fileId)) return [];
  const { type: _type, at, ...file } = command;
  return [{ type: 'SavFileAttached', data: { savId: state.savId, ...file, attachedAt: at } }];
};

const evolve = (state: SavState, event: SavEvent): SavState => {
  switch (event.type) {
    case 'SavCreated': {
      const { savId, saleId, saleProductIds } = event.data;
      return {
        exists: true,
        savId,
        saleId,
        saleProductIds,
        status: 'in_progress',
        appointment: null,
        releasedAppointment: null,
        fileIds: new Set(),
        fetches: new Map(),
      };
    }
    case 'SavAppointmentScheduled': {
      if (!state.exists) return state;
      const { date, time, phone, comment } = event.data;
      return { ...state, appointment: { date, time, phone, comment } };
    }
    case 'SavFileAttached':
      return state.exists ? { ...state, fileIds: new Set([...state.fileIds, event.data.fileId]), fetches: evolveFetches(state.fetches, event) } : state;
    case 'SavFileFetched':
    case 'SavFileFetchFailed':
      return state.exists ? { ...state, fetches: evolveFetches(state.fetches, event) } : state;
    case 'SavResolved':
    case 'SavClosed':
    case 'SavReopened':
    case 'SavCancelled':
      return state.exists ? evolveTransition(state, event) : state;
    default:
      return assertNever(event);
  }
};

export const savDecider: Decider<SavState, SavCommand, SavEvent> = {
  initialState: () => ({ exists: false }),
  evolve,
  decide: (command, state) => {
    switch (command.type) {
      case 'CreateSav':
        return create(command, state);
      case 'ScheduleSavAppointment':
        return schedule(command, state);
      case 'AttachSavFile':
        return attach(command, state);
      case 'ResolveSav':
      case 'CloseSav':
      case 'ReopenSav':
      case 'CancelSav':
        return state.exists ? decideTransition(command, state) : new Refusal('unknown_sav', 'No SAV with this ID');
      case 'RecordSavFileFetched':
        return decideFetched(command, state);
      case 'RecordSavFileFetchFailed':
        return decideFetchFailed(command, state);
      default:
        return assertNever(command);
    }
  },
};
