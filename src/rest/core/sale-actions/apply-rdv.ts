import type { RouterMiddleware } from '@koa/router';
import { rdvTokenData } from '../../../events/access/mint-action-token.ts';
import type { CommandContext } from '../../../events/command-context.ts';
import { scheduleDeliveryAppointment } from '../../../events/sales/delivery-appointment.ts';
import type { Runtime } from '../../../runtime.ts';
import { deliveryAppointmentDeps, deliverySlotRefusal } from './delivery-planning.ts';
import { refusalError } from './sale-action-errors.ts';
import { saleActionRequest, tokenData } from './sale-action-request.ts';
import { saleRefusal } from './sale-precheck.ts';
import { actOnce } from './single-use.ts';

/**
 * POST /api/sale-rdv-check/{token}: books the delivery appointment the token carries and uses the
 * token up. A sale with nothing left to deliver, or a slot the planning refuses (full, holiday, closed
 * day), answers 409 and leaves the token usable (see single-use.ts).
 */
export const applySaleRdv = (runtime: Runtime): RouterMiddleware => {
  const deps = deliveryAppointmentDeps(runtime);
  return async (ctx) => {
    const { payload, sale } = await saleActionRequest(runtime, ctx.params, 'rdv');
    const { date, time } = tokenData(rdvTokenData, payload);
    const context: CommandContext = ctx.state.commandContext;
    const { incrementId } = sale;
    const previous = sale.deliveryAppointment ? { date: sale.deliveryAppointment.date, time: sale.deliveryAppointment.time } : null;

    const result = await actOnce(
      runtime,
      payload,
      context,
      {
        precheck: async () =>
          (await saleRefusal(runtime, incrementId, { type: 'ScheduleSaleDeliveryAppointment', date, time, at: runtime.clock.now().toISOString() })) ??
          (await deliverySlotRefusal(runtime, { date, time, ref: { kind: 'sale', saleId: sale._id, incrementId } })),
        act: () => scheduleDeliveryAppointment(deps, { incrementId, date, time }, context),
      },
      ctx.state,
    );
    if (result.status === 'refused') throw refusalError(result.refusal);

    ctx.body = {
      success: true,
      sale_id: sale._id,
      increment_id: incrementId,
      status: result.status,
      appointment: { date, time },
      previous_appointment: result.status === 'scheduled' ? result.previous : previous,
      message: result.status === 'scheduled' ? 'The delivery appointment is scheduled' : 'The sale already has this delivery appointment',
    };
  };
};
