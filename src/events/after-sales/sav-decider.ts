import { assertNever, Refusal, type Decider } from '../decider.ts';
import type { SavEvent } from './events.ts';
import type { AttachSavFile, CreateSav, SavCommand, SavSale, ScheduleSavAppointment } from './sav-commands.ts';
import { decideFetched, decideFetchFailed } from './sav-file-fetch.ts';
import type { SavRefusalCode } from './sav-refusals.ts';
import { evolve, initialState, type SavState } from './sav-state.ts';
import { decideTransition, statusConflict } from './sav-transitions.ts';

/** A SAV (after-sales request), stream `sav-<savId>`: its commands in sav-commands.ts, its state in sav-state.ts. */

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

export const savDecider: Decider<SavState, SavCommand, SavEvent> = {
  initialState,
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
