import type { RouterMiddleware } from '@koa/router';
import { localDateIn } from '../../../events/planning/calendar-date.ts';
import { defaultHolidayWindow } from '../../../events/planning/holidays-decider.ts';
import type { Runtime } from '../../../runtime.ts';
import { parseInput } from '../../parse-input.ts';
import { legacyQuery } from '../../query-parameters.ts';
import { holidaysOf } from '../../../projections/planning/holiday-calendar.ts';
import { invalidRequest } from './sav-errors.ts';
import { holidaysQuery } from './schemas.ts';

/**
 * GET /api/sav-holidays: the days of the current and the next year (in the planning's time zone) on
 * which no SAV appointment is given, in date order: "JSON array of holiday dates", YYYY-MM-DD, as the
 * legacy service answered. `?labels=true` answers each as `{date, label}` (label null for a declared
 * day given no name); GraphQL's planning occupancy has the names too.
 */
export const savHolidays =
  (runtime: Runtime): RouterMiddleware =>
  async (ctx) => {
    const query = parseInput(holidaysQuery, legacyQuery(ctx.query), invalidRequest);
    const { from, to } = defaultHolidayWindow(localDateIn(runtime.clock.now(), runtime.config.planningTimezone));
    const holidays = await holidaysOf(runtime.readStore, from, to);
    ctx.body = query.labels === 'true' ? holidays.map(({ date, label }) => ({ date, label })) : holidays.map(({ date }) => date);
  };
