import type { CommandContext } from '../command-context.ts';
import { handleCommand, writtenBy, writtenTogether, type Written } from '../command-handler.ts';
import type { Refusal } from '../decider.ts';
import { localDateIn } from '../planning/calendar-date.ts';
import type { PlanningDeps } from '../planning/planning-handlers.ts';
import { releaseSlot } from '../planning/slot-booking.ts';
import { savStreamName } from './events.ts';
import type { SavTransition } from './sav-commands.ts';
import { savDecider } from './sav-decider.ts';
import type { SavSlot, SavState } from './sav-state.ts';

/**
 * The status changes of a SAV, for staff: each reads the SAV's stream, decides and appends with the
 * expected revision, so that of two changes racing on one SAV the second is decided again against the
 * first (resolving twice: one `resolved`, one refusal). A SAV that ends gives its appointment back
 * after its end is recorded; should that release fail, the same command sent again (refused, the SAV
 * having ended) finishes it: releasing a place no longer held records nothing.
 */

export type SavTransitionResult =
  | { status: 'resolved' | 'closed' | 'reopened' | 'cancelled'; at: string; releasedAppointment: SavSlot | null; written: Written | undefined }
  | { status: 'refused'; refusal: Refusal };

const giveBack = async (deps: PlanningDeps, savId: number, slot: SavSlot, context: CommandContext): Promise<Written | undefined> =>
  (await releaseSlot(deps, { planningType: 'sav', ...slot, ref: { kind: 'sav', savId } }, context)).written;

/** The place an ended SAV gave back, released again in case the first release did not happen. */
const finishRelease = async (deps: PlanningDeps, savId: number, state: SavState, context: CommandContext): Promise<void> => {
  if (state.exists && (state.status === 'closed' || state.status === 'cancelled') && state.releasedAppointment) {
    await giveBack(deps, savId, state.releasedAppointment, context);
  }
};

const change = async (
  deps: PlanningDeps,
  savId: number,
  command: SavTransition,
  done: Exclude<SavTransitionResult['status'], 'refused'>,
  context: CommandContext,
): Promise<SavTransitionResult> => {
  const outcome = await handleCommand(deps, savStreamName(savId), savDecider, command, context);
  if (outcome.status === 'refused') {
    if (command.type === 'CloseSav' || command.type === 'CancelSav') await finishRelease(deps, savId, outcome.state, context);
    return { status: 'refused', refusal: outcome.refusal };
  }
  // A transition always records its event: `unchanged` does not happen.
  const event = outcome.status === 'accepted' ? outcome.events[0] : undefined;
  const released = event && 'releasedAppointment' in event.data ? event.data.releasedAppointment : null;
  const givenBack = released ? await giveBack(deps, savId, released, context) : undefined;
  return { status: done, at: command.at, releasedAppointment: released, written: writtenTogether(writtenBy(outcome), givenBack) };
};

const clockOf = (deps: PlanningDeps) => {
  const now = deps.clock.now();
  return { at: now.toISOString(), today: localDateIn(now, deps.timezone) };
};

export const resolveSav = (deps: PlanningDeps, { savId, resolution }: { savId: number; resolution: string }, context: CommandContext) =>
  change(deps, savId, { type: 'ResolveSav', resolution, at: clockOf(deps).at }, 'resolved', context);

export const closeSav = (deps: PlanningDeps, { savId }: { savId: number }, context: CommandContext) =>
  change(deps, savId, { type: 'CloseSav', ...clockOf(deps) }, 'closed', context);

export const reopenSav = (deps: PlanningDeps, { savId, reason }: { savId: number; reason: string }, context: CommandContext) =>
  change(deps, savId, { type: 'ReopenSav', reason, at: clockOf(deps).at }, 'reopened', context);

export const cancelSav = (deps: PlanningDeps, { savId, reason }: { savId: number; reason: string }, context: CommandContext) =>
  change(deps, savId, { type: 'CancelSav', reason, ...clockOf(deps) }, 'cancelled', context);
