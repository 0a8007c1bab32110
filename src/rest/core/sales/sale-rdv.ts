import type { RouterMiddleware } from '@koa/router';
import { addDays, localDateIn } from '../../../events/planning/calendar-date.ts';
import type { Runtime } from '../../../runtime.ts';
import { readDeliveryPlanning } from './delivery-planning-reads.ts';
import { rdvConfig, rdvWindowDays } from './rdv-config.ts';
import { saleFromIdParam } from './sale-loader.ts';

/** GET /api/sale-rdv/{id}: the delivery appointment dates and slots open to the sale, from today in the planning's time zone. */
export const saleRdv =
  (runtime: Runtime): RouterMiddleware =>
  async (ctx) => {
    const sale = await saleFromIdParam(runtime, ctx);
    const timezone = runtime.config.planningTimezone;
    const today = localDateIn(runtime.clock.now(), timezone);
    const planning = await readDeliveryPlanning(runtime.readStore, { from: today, to: addDays(today, rdvWindowDays) });
    ctx.body = rdvConfig(sale, planning, { today, timezone });
  };
