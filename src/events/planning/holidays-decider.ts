import { assertNever, Refusal, type Decider } from '../decider.ts';
import { yearOf } from './calendar-date.ts';
import type { PlanningEvent } from './events.ts';
import { frenchPublicHolidays, isFrenchPublicHoliday, type Holiday } from './french-holidays.ts';

/**
 * The holidays declared on top of the French public holidays, stream `holidays-calendar`. They close
 * every planning type. Public holidays are computed, never recorded; declaring one anyway is recorded.
 */

export type DeclareHoliday = { type: 'DeclareHoliday'; date: string; label: string | null; at: string };
export type RemoveHoliday = { type: 'RemoveHoliday'; date: string; at: string };
export type HolidayCommand = DeclareHoliday | RemoveHoliday;

export type HolidayEvent = Extract<PlanningEvent, { type: 'HolidayDeclared' | 'HolidayRemoved' }>;

/** Declared holidays by date, with their label. */
export type DeclaredHolidays = { declared: ReadonlyMap<string, string | null> };

export type HolidayRefusalCode = 'holiday_not_declared' | 'public_holiday';

const declare = (command: DeclareHoliday, state: DeclaredHolidays): HolidayEvent[] =>
  state.declared.has(command.date) ? [] : [{ type: 'HolidayDeclared', data: { date: command.date, label: command.label, declaredAt: command.at } }];

const remove = (command: RemoveHoliday, state: DeclaredHolidays): HolidayEvent[] | Refusal<HolidayRefusalCode> => {
  // Checked first: removing a declaration of a public holiday would leave the day closed anyway.
  if (isFrenchPublicHoliday(command.date)) {
    return new Refusal('public_holiday', 'A French public holiday cannot be removed', { date: command.date });
  }
  if (!state.declared.has(command.date)) {
    return new Refusal('holiday_not_declared', 'No holiday is declared on this date', { date: command.date });
  }
  return [{ type: 'HolidayRemoved', data: { date: command.date, removedAt: command.at } }];
};

export const holidaysDecider: Decider<DeclaredHolidays, HolidayCommand, HolidayEvent> = {
  initialState: () => ({ declared: new Map() }),
  evolve: (state, event) => {
    const declared = new Map(state.declared);
    switch (event.type) {
      case 'HolidayDeclared':
        declared.set(event.data.date, event.data.label);
        return { declared };
      case 'HolidayRemoved':
        declared.delete(event.data.date);
        return { declared };
      default:
        return assertNever(event);
    }
  },
  decide: (command, state) => {
    switch (command.type) {
      case 'DeclareHoliday':
        return declare(command, state);
      case 'RemoveHoliday':
        return remove(command, state);
      default:
        return assertNever(command);
    }
  },
};

/**
 * Every holiday from `from` to `to` (inclusive): the French public holidays of the years covered and
 * the declared ones, sorted by date, one per date (a public holiday keeps its official name).
 */
export const holidaysBetween = (state: DeclaredHolidays, from: string, to: string): Holiday[] => {
  const byDate = new Map<string, string | null>();
  for (let year = yearOf(from); year <= yearOf(to); year++) {
    for (const holiday of frenchPublicHolidays(year)) byDate.set(holiday.date, holiday.label);
  }
  for (const [date, label] of state.declared) if (!byDate.has(date)) byDate.set(date, label);
  return [...byDate]
    .filter(([date]) => date >= from && date <= to)
    .sort(([left], [right]) => left.localeCompare(right))
    .map(([date, label]) => ({ date, label }));
};

/** The default window of the holiday list: the current and the next year. */
export const defaultHolidayWindow = (today: string): { from: string; to: string } => ({
  from: `${yearOf(today)}-01-01`,
  to: `${yearOf(today) + 1}-12-31`,
});
