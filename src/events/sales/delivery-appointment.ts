import type { CommandContext } from '../command-context.ts';
import { handleCommand } from '../command-handler.ts';
import { isRefusal, type Refusal } from '../decider.ts';
import type { SaveDeliveryServiceAppointment, ScheduleSaleDeliveryAppointment } from './commands.ts';
import { saleDecider } from './decider.ts';
import { nowIso, readSale, type Refused, type SalesDeps } from './deps.ts';
import { saleStreamName } from './events.ts';

/** A place asked of (or given back to) the delivery planning for a sale's appointment. */
export type SlotBooking = {
  planningType: 'delivery';
  date: string;
  time: string;
  ref: { kind: 'sale'; saleId: number; incrementId: string };
  /** The sale's appointment this one replaces, whose place the planning frees; null for a first one. */
  previous: { date: string; time: string } | null;
};
export type SlotAnswer = { ok: true } | { ok: false; refusal: Refusal };
export type SlotOperation = (booking: SlotBooking, context: CommandContext) => Promise<SlotAnswer>;

export type DeliveryAppointmentDeps = SalesDeps & {
  /** Holds the place in the planning day, checking its capacity. */
  bookSlot: SlotOperation;
  /** Undoes a `bookSlot` of the same booking. */
  releaseSlot: SlotOperation;
};

export type ScheduleDeliveryAppointmentInput = { incrementId: string; date: string; time: string };
export type ScheduleDeliveryAppointmentResult =
  | { status: 'scheduled'; previous: { date: string; time: string } | null }
  | { status: 'unchanged' }
  | Refused;

/** Whether the sale's recorded appointment is the booked one; when the store cannot tell, it is taken as not. */
const holds = async (deps: SalesDeps, incrementId: string, booking: SlotBooking): Promise<boolean> => {
  try {
    const appointment = (await readSale(deps.eventStore, incrementId))?.deliveryAppointment;
    return appointment?.date === booking.date && appointment.time === booking.time;
  } catch {
    return false;
  }
};

/**
 * Books first, then records: capacity is the planning day's to check, so the place is held there
 * before the sale records its appointment. The command names the appointment the booking replaced;
 * if the sale's appointment changed meanwhile, or recording fails, the booking is released, so the
 * planning never keeps a place that no sale holds.
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
    data: { date, time, expectedPrevious: previous, at: nowIso(deps) },
  };
  // Decided once before booking, so that a refused or repeated appointment holds no place even briefly.
  const precheck = saleDecider.decide(command, sale);
  if (isRefusal(precheck)) return { status: 'refused', refusal: precheck };
  if (precheck.length === 0 || sale === null) return { status: 'unchanged' };

  const booking: SlotBooking = { planningType: 'delivery', date, time, ref: { kind: 'sale', saleId: sale.saleId, incrementId }, previous };
  const booked = await deps.bookSlot(booking, context);
  if (!booked.ok) return { status: 'refused', refusal: booked.refusal };

  let outcome;
  try {
    outcome = await handleCommand(deps, saleStreamName(incrementId), saleDecider, command, context);
  } catch (error) {
    // A failure after the append (waiting for the projections) leaves the appointment recorded: keep its place.
    if (await holds(deps, incrementId, booking)) throw error;
    await deps.releaseSlot(booking, context).catch((releaseError: unknown) => {
      throw new AggregateError([error, releaseError], `Recording the appointment of sale ${incrementId} failed, and so did releasing its place`);
    });
    throw error;
  }
  if (outcome.status === 'accepted') return { status: 'scheduled', previous };
  await deps.releaseSlot(booking, context);
  return outcome.status === 'refused' ? { status: 'refused', refusal: outcome.refusal } : { status: 'unchanged' };
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
): Promise<{ status: 'saved' } | { status: 'unchanged' } | Refused> => {
  const command: SaveDeliveryServiceAppointment = { type: 'SaveDeliveryServiceAppointment', data: { ...appointment, at: nowIso(deps) } };
  const outcome = await handleCommand(deps, saleStreamName(incrementId), saleDecider, command, context);
  if (outcome.status === 'refused') return { status: 'refused', refusal: outcome.refusal };
  return { status: outcome.status === 'accepted' ? 'saved' : 'unchanged' };
};
