import type { PlanningType } from '../schema/common-schemas.ts';
import type { CommandContext } from '../command-context.ts';
import { handleCommand, writtenBy, type CommandOutcome, type WriteDeps, type Written } from '../command-handler.ts';
import { fold, type Refusal } from '../decider.ts';
import { readDomainStream } from '../domain-store.ts';
import type { EventStore } from '../store/event-store.ts';
import { localDateIn } from './calendar-date.ts';
import { holidaysStreamName, planningStreamName, type PlanningEvent, type PlanningSettings } from './events.ts';
import type { Holiday } from './french-holidays.ts';
import { defaultHolidayWindow, holidaysBetween, holidaysDecider, type DeclaredHolidays, type HolidayEvent } from './holidays-decider.ts';
import { effectiveSettings, planningDecider, type PlanningConfigured } from './planning-decider.ts';

/** Application handlers of the planning settings and the holiday calendar. */

/** What the planning handlers need besides the store: the IANA time zone the plannings run in (e.g. 'Europe/Paris'). */
export type PlanningDeps = WriteDeps & { timezone: string };

type Changed<Done extends string> = { status: Done; written: Written | undefined } | { status: 'unchanged' } | { status: 'refused'; refusal: Refusal };

const changed = <Done extends string>(done: Done, outcome: CommandOutcome<unknown, PlanningEvent>): Changed<Done> => {
  if (outcome.status === 'refused') return { status: 'refused', refusal: outcome.refusal };
  return outcome.status === 'accepted' ? { status: done, written: writtenBy(outcome) } : { status: 'unchanged' };
};

export const configurePlanning = async (
  deps: WriteDeps,
  input: { planningType: PlanningType; slotTimes: string[]; capacityPerSlot: number; workingDays: number[] },
  context: CommandContext,
): Promise<Changed<'configured'>> => {
  const command = { type: 'ConfigurePlanning' as const, ...input, at: deps.clock.now().toISOString() };
  return changed('configured', await handleCommand(deps, planningStreamName(input.planningType), planningDecider, command, context));
};

export const declareHoliday = async (deps: WriteDeps, input: { date: string; label: string | null }, context: CommandContext): Promise<Changed<'declared'>> => {
  const command = { type: 'DeclareHoliday' as const, ...input, at: deps.clock.now().toISOString() };
  return changed('declared', await handleCommand(deps, holidaysStreamName, holidaysDecider, command, context));
};

export const removeHoliday = async (deps: WriteDeps, input: { date: string }, context: CommandContext): Promise<Changed<'removed'>> => {
  const command = { type: 'RemoveHoliday' as const, ...input, at: deps.clock.now().toISOString() };
  return changed('removed', await handleCommand(deps, holidaysStreamName, holidaysDecider, command, context));
};

/** The planning's settings (its defaults until configured) and the declared holidays. */
export const loadPlanning = async (
  deps: { eventStore: EventStore },
  planningType: PlanningType,
): Promise<{ settings: PlanningSettings; declaredHolidays: DeclaredHolidays }> => {
  const [planning, holidays] = await Promise.all([
    readDomainStream<PlanningConfigured>(deps.eventStore, planningStreamName(planningType)),
    readDomainStream<HolidayEvent>(deps.eventStore, holidaysStreamName),
  ]);
  return {
    settings: effectiveSettings(fold(planningDecider, planning.events), planningType),
    declaredHolidays: fold(holidaysDecider, holidays.events),
  };
};

/** The holidays of a window of dates; by default the current and the next year in the planning's time zone. */
export const loadHolidays = async (
  deps: Pick<PlanningDeps, 'eventStore' | 'clock' | 'timezone'>,
  window: { from: string; to: string } = defaultHolidayWindow(localDateIn(deps.clock.now(), deps.timezone)),
): Promise<Holiday[]> => {
  const { events } = await readDomainStream<HolidayEvent>(deps.eventStore, holidaysStreamName);
  return holidaysBetween(fold(holidaysDecider, events), window.from, window.to);
};
