import { assertNever, Refusal } from '../decider.ts';
import type { SavEvent } from './events.ts';
import type { SavTransition } from './sav-commands.ts';
import type { SavRefusalCode } from './sav-refusals.ts';
import type { ExistingSav, SavSlot, SavStatus } from './sav-state.ts';

/**
 * The status changes of a SAV, pure: staff resolve it (with what was done), close it once resolved,
 * reopen it when resolved or closed (with why), or cancel it while in progress (with why). A SAV
 * that ends (closed or cancelled) gives back its appointment unless its day is past: a past visit
 * stays in the planning as it happened. `today` is the planning's local date, given by the handler.
 * Their events are folded with the others' in sav-state.ts.
 */

/** The statuses each command applies to; any other is refused with `sav_status_conflict`. */
export const allowedFrom: Readonly<Record<SavTransition['type'], readonly SavStatus[]>> = {
  ResolveSav: ['in_progress'],
  CloseSav: ['resolved'],
  ReopenSav: ['resolved', 'closed'],
  CancelSav: ['in_progress'],
};

const participle: Readonly<Record<SavTransition['type'], string>> = {
  ResolveSav: 'resolved',
  CloseSav: 'closed',
  ReopenSav: 'reopened',
  CancelSav: 'cancelled',
};

/** The refusal of a command the SAV's status does not allow; shared with appointment scheduling. */
export const statusConflict = (state: ExistingSav, what: string, allowed: readonly SavStatus[]): Refusal<SavRefusalCode> =>
  new Refusal('sav_status_conflict', `SAV ${state.savId} is ${state.status}: ${what} (only a SAV ${allowed.join(' or ')} can be)`, {
    savId: state.savId,
    status: state.status,
    allowedFrom: allowed,
  });

/** The appointment an ending SAV gives back: the one it holds, unless its day is before today. */
const upcoming = (state: ExistingSav, today: string): SavSlot | null =>
  state.appointment && state.appointment.date >= today ? { date: state.appointment.date, time: state.appointment.time } : null;

export const decideTransition = (command: SavTransition, state: ExistingSav): SavEvent[] | Refusal<SavRefusalCode> => {
  const allowed = allowedFrom[command.type];
  if (!allowed.includes(state.status)) return statusConflict(state, `it cannot be ${participle[command.type]}`, allowed);
  const { savId } = state;
  switch (command.type) {
    case 'ResolveSav':
      return [{ type: 'SavResolved', data: { savId, resolution: command.resolution, resolvedAt: command.at } }];
    case 'CloseSav':
      return [{ type: 'SavClosed', data: { savId, releasedAppointment: upcoming(state, command.today), closedAt: command.at } }];
    case 'ReopenSav': {
      const reopenedFrom = state.status === 'closed' ? 'closed' : 'resolved';
      return [{ type: 'SavReopened', data: { savId, reason: command.reason, reopenedFrom, reopenedAt: command.at } }];
    }
    case 'CancelSav':
      return [{ type: 'SavCancelled', data: { savId, reason: command.reason, releasedAppointment: upcoming(state, command.today), cancelledAt: command.at } }];
    default:
      return assertNever(command);
  }
};
