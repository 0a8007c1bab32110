import { evolveOnce, type Tracked } from './projection.ts';
import type { ReadCollection } from './read-store/read-store.ts';

/**
 * Day documents that carry, beside the day's own figures, running totals up to and including that day
 * (`<name>UpTo`), so that "as of a date" is one read of the last day document on or before it instead
 * of a sum over every earlier day. A calendar document per scope lists the days that have a document:
 * a figure dated on some day adds to the totals of that day and of every later one (in practice none:
 * events are dated when they happen, on the last day; a replay of dated history meets a few).
 */

export type Totals = Record<string, number>;

export type CalendarDocument = Tracked & {
  /** The scope: `days` for the dashboard, the supplier for its performance. */
  _id: string;
  /** The days of the scope that have a document, in order (YYYY-MM-DD). */
  days: string[];
};

export type DatedDocument = Tracked & { _id: string; date: string };

type Collections<D extends DatedDocument> = {
  days: ReadCollection<D>;
  calendars: ReadCollection<CalendarDocument>;
  /** The `_id` of the scope's document of a day. */
  dayId: (date: string) => string;
  scope: string;
};

/** The index of the first day not before `date` (binary search in the sorted list). */
const indexOf = (days: readonly string[], date: string): number => {
  let low = 0;
  let high = days.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (days[middle]! < date) low = middle + 1;
    else high = middle;
  }
  return low;
};

const upTo = (name: string): string => `${name}UpTo`;

/** `totals` read from a day document's `<name>UpTo` fields (0 when missing). */
const totalsOf = (doc: Record<string, unknown> | null, names: readonly string[]): Totals =>
  Object.fromEntries(names.map((name) => [name, doc === null ? 0 : ((doc[upTo(name)] as number | undefined) ?? 0)]));

/**
 * Changes the scope's document of `date` (created from `change(null)` if missing) and adds `deltas`
 * to the running totals of that day and of the later ones. Idempotent as each document is: every one
 * it writes records `position`.
 */
export const changeDay = async <D extends DatedDocument>(
  { days, calendars, dayId, scope }: Collections<D>,
  date: string,
  position: number,
  change: (current: Omit<D, '_id' | '_position'> | null) => Omit<D, '_id' | '_position'>,
  deltas: Totals,
): Promise<void> => {
  const names = Object.keys(deltas);
  const calendar = (await calendars.findOne({ _id: scope }))?.days ?? [];
  const at = indexOf(calendar, date);
  const known = calendar[at] === date;
  if (!known) await evolveOnce(calendars, scope, position, () => ({ days: [...calendar.slice(0, at), date, ...calendar.slice(at)] }));
  // A new day starts from the totals of the day before it; so does a listed day whose document is not
  // there (the calendar written and not the day, the batch cut short on a read store without transactions).
  const missing = !known || (await days.findOne({ _id: dayId(date) } as never)) === null;
  const before =
    missing && at > 0 ? totalsOf((await days.findOne({ _id: dayId(calendar[at - 1]!) } as never)) as Record<string, unknown> | null, names) : undefined;
  await evolveOnce(days, dayId(date), position, (current) => {
    const next = change(current) as Record<string, unknown>;
    const base = current === null ? (before ?? totalsOf(null, names)) : totalsOf(current as Record<string, unknown>, names);
    for (const name of names) next[upTo(name)] = base[name]! + deltas[name]!;
    return next as Omit<D, '_id' | '_position'>;
  });
  if (names.every((name) => deltas[name] === 0)) return;
  for (const later of calendar.slice(known ? at + 1 : at)) {
    await evolveOnce(days, dayId(later), position, (current) => {
      if (current === null) return null;
      const next = { ...current } as Record<string, unknown>;
      for (const name of names) next[upTo(name)] = ((next[upTo(name)] as number | undefined) ?? 0) + deltas[name]!;
      return next as Omit<D, '_id' | '_position'>;
    });
  }
};

/**
 * The running totals at the end of `date` (or, `before`, at its start): those of the scope's last day
 * document up to it, 0 before the first. One indexed read, however long the history.
 */
export const totalsAsOf = async <D extends DatedDocument>(
  days: ReadCollection<D>,
  scope: Record<string, unknown>,
  date: string,
  names: readonly string[],
  options: { before?: boolean } = {},
): Promise<Totals> => {
  const last = await days.findOne({ ...scope, date: options.before ? { $lt: date } : { $lte: date } } as never, { sort: { date: -1 } });
  return totalsOf(last as Record<string, unknown> | null, names);
};
