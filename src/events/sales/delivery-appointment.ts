import { recordedNothing } from '../recorded-nothing.ts';
import type { CommandContext } from '../command-context.ts';
import { handleCommand, writtenBy, writtenTogether, type Written } from '../command-handler.ts';
import { isRefusal, type Refusal } from '../decider.ts';
import type { SaveDeliveryServiceAppointment, ScheduleSaleDeliveryAppointment } from './commands.ts';
import { saleDecider } from './decider.ts';
import { nowIso, readSale, type Refused, type SalesDeps } from './deps.ts';
import { sameSlot } from '../planning/slot-booking.ts';
import { saleStreamName } from './events.ts';
import type { SaleState } from './state.ts';

/** A place asked of (or given back to) the delivery planning for a sale's appointment. */
export type SlotBooking = {
  planningType: 'delivery';
  date: string;
  time: string;
  ref: { kind: 'sale'; saleId: number; incrementId: string };
};
/** `took`: whether this booking took the place, rather than finding it already held by the sale. */
export type SlotAnswer = { ok: true; took: boolean; written?: Written } | { ok: false; refusal: Refusal };

export type DeliveryAppointmentDeps = SalesDeps & {
  /** Holds the place in the planning day, checking its capacity. */
  bookSlot: (booking: SlotBooking, context: CommandContext) => Promise<SlotAnswer>;
  /** Gives a place of the sale back; a place it does not hold is left alone. */
  releaseSlot: (booking: SlotBooking, context: CommandContext) => Promise<{ ok: boolean; written?: Written }>;
};

export type ScheduleDeliveryAppointmentInput = { incrementId: string; date: string; time: string };
export type ScheduleDeliveryAppointmentResult =
  { status: 'scheduled'; previous: { date: string; time: string } | null; written: Written | undefined } | { status: 'unchanged'; written?: Written } | Refused;

/**
 * Books first, then records, then gives the replaced place back: capacity is the planning day's to
 * check, so the new place is held there before the sale records its appointment, and the old place
 * is released only once the sale has recorded the move (from the recorded event), so that a refused
 * or failed recording leaves the sale with its appointment and its place.
 *
 * When the recording does not happen, the new place goes back only if this request took it (a
 * racing request of the same sale for the same slot found it held, and must not release what the
 * other one records), the sale surely does not hold it, and the failure surely recorded nothing
 * (recorded-nothing.ts): after a failure that may have recorded the appointment, the place is kept.
 */
export const scheduleDeliveryAppointment = async (
  deps: DeliveryAppointmentDeps,
  { incrementId, date, time }: ScheduleDeliveryAppointmentInput,
  context: CommandContext,
): Promise<ScheduleDeliveryAppointmentResult> => {
  const sale = await readSale(deps.eventStore, incrementId);
  const current = sale?.deliveryAppointment;
  const previous = current ? { date: current.date, time: current.time } : null;
  const command: ScheduleSaleDeliveryAppointment = {
    type: 'ScheduleSaleDeliveryAppointment',
    date,
    time,
    expectedPrevious: previous,
    at: nowIso(deps),
  };
  // Decided once before booking, so that a refused or repeated appointment holds no place even briefly.
  const precheck = saleDecider.decide(command, sale);
  if (isRefusal(precheck)) return { status: 'refused', refusal: precheck };
  if (precheck.length === 0 || sale === null) return { status: 'unchanged' };

  const booking: SlotBooking = { planningType: 'delivery', date, time, ref: { kind: 'sale', saleId: sale.saleId, incrementId } };
  const booked = await deps.bookSlot(booking, context);
  if (!booked.ok) return { status: 'refused', refusal: booked.refusal };
  const giveBackNew = async (state: SaleState) => {
    if (booked.took && !sameSlot(state?.deliveryAppointment, booking)) await deps.releaseSlot(booking, context);
  };

  let outcome;
  try {
    outcome = await handleCommand(deps, saleStreamName(incrementId), saleDecider, command, context);
  } catch (error) {
    // Should reading or releasing fail too, the place stays held: the lesser harm, as above.
    if (recordedNothing(error))
      await readSale(deps.eventStore, incrementId)
        .then(giveBackNew)
        .catch(() => undefined);
    throw error;
  }
  if (outcome.status !== 'accepted') {
    await giveBackNew(outcome.state);
    return outcome.status === 'refused' ? { status: 'refused', refusal: outcome.refusal } : { status: 'unchanged', written: booked.written };
  }
  const scheduled = outcome.events.find((event) => event.type === 'SaleDeliveryAppointmentScheduled');
  const replaced = scheduled?.type === 'SaleDeliveryAppointmentScheduled' ? scheduled.data.previous : null;
  const released = replaced ? await deps.releaseSlot({ ...booking, date: replaced.date, time: replaced.time }, context) : undefined;
  return { status: 'scheduled', previous: replaced, written: writtenTogether(booked.written, writtenBy(outcome), released?.written) };
};

export type SaveDeliveryServiceAppointmentInput = {
  incrementId: string;
  provider: string;
  reference: string;
  date: string | null;
  timeWindow: string | null;
};

/** Records the appointment a third-party delivery service gave; its planning is the provider's, not ours. */
export const saveDeliveryServiceAppointment = async (
  deps: SalesDeps,
  { incrementId, ...appointment }: SaveDeliveryServiceAppointmentInput,
  context: CommandContext,
): Promise<{ status: 'saved'; written: Written | undefined } | { status: 'unchanged' } | Refused> => {
  const command: SaveDeliveryServiceAppointment = { type: 'SaveDeliveryServiceAppointment', ...appointment, at: nowIso(deps) };
  const outcome = await handleCommand(deps, saleStreamName(incrementId), saleDecider, command, context);
  if (outcome.status === 'refused') return { status: 'refused', refusal: outcome.refusal };
  return outcome.status === 'accepted' ? { status: 'saved', written: writtenBy(outcome) } : { status: 'unchanged' };
};
