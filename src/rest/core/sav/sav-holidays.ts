import type { RouterMiddleware } from '@koa/router';
import { localDateIn } from '../../../events/planning/calendar-date.ts';
import { defaultHolidayWindow } from '../../../events/planning/holidays-decider.ts';
import type { Runtime } from '../../../runtime.ts';
import { holidaysOf } from './holiday-calendar.ts';

/**
 * GET /api/sav-holidays: the days of the current and the next year (in the planning's time zone) on
 * which no SAV appointment is given, in date order, each with its name (null for a declared day given none).
 */
export const savHolidays = (runtime: Runtime): RouterMiddleware => async (ctx) => {
  const { from, to } = defaultHolidayWindow(localDateIn(runtime.clock.now(), runtime.config.planningTimezone));
  const holidays = await holidaysOf(runtime.readStore, from, to);
  ctx.body = holidays.map(({ date, label }) => ({ date, label }));
};
