import type { RouterMiddleware } from '@koa/router';
import { localDateIn } from '../../../events/planning/calendar-date.ts';
import { occupancy } from '../../../projections/planning/queries.ts';
import type { Runtime } from '../../../runtime.ts';
import { parseInput } from '../../parse-input.ts';
import { legacyQuery } from '../../query-parameters.ts';
import { holidaysOf } from '../../../projections/planning/holiday-calendar.ts';
import { requestedDates } from './occupied-dates.ts';
import { invalidField, invalidRequest } from './sav-errors.ts';
import { occupiedQuery } from './schemas.ts';

/**
 * GET /api/sale-sav/planning/occupied: the places taken per day and slot in the SAV planning (or the
 * plannings listed), the holidays among those days, and the planning's time zone. Every requested day
 * is a key of `occupied`, `{}` when nothing is taken, so that a client can index any of them.
 */
export const planningOccupied =
  (runtime: Runtime): RouterMiddleware =>
  async (ctx) => {
    const query = parseInput(occupiedQuery, legacyQuery(ctx.query), invalidRequest);
    const timezone = runtime.config.planningTimezone;
    const requested = requestedDates(query, localDateIn(runtime.clock.now(), timezone));
    if ('field' in requested) throw invalidField(requested.field, requested.message);

    const { start, end, dates } = requested;
    const [taken, holidays] = await Promise.all([
      occupancy(runtime.readStore, { planningTypes: query.planning_types ?? ['sav'], from: start, to: end, excludeSavId: query.complaint }),
      holidaysOf(runtime.readStore, start, end),
    ]);
    const asked = new Set(dates);
    ctx.body = {
      success: true,
      dates,
      range: { start, end },
      occupied: Object.fromEntries(dates.map((date) => [date, taken[date] ?? {}])),
      holidays: holidays.map((holiday) => holiday.date).filter((date) => asked.has(date)),
      timezone,
    };
  };
