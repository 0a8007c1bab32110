import type { RouterMiddleware } from '@koa/router';
import { deliveryRdvTokenData } from '../../../events/access/mint-action-token.ts';
import type { CommandContext } from '../../../events/command-context.ts';
import { saveDeliveryServiceAppointment } from '../../../events/sales/delivery-appointment.ts';
import type { Runtime } from '../../../runtime.ts';
import { refusalError } from './sale-action-errors.ts';
import { saleActionRequest, tokenData } from './sale-action-request.ts';
import { saleRefusal } from './sale-precheck.ts';
import { actOnce } from './single-use.ts';

/**
 * POST /api/sale-delivery-rdv/{token}: records the appointment a third-party delivery service gave
 * (provider, reference, optional date and time window). Their planning is theirs: no place is booked
 * in ours. Refused (409) when the sale is cancelled.
 */
export const saveSaleDeliveryRdv =
  (runtime: Runtime): RouterMiddleware =>
  async (ctx) => {
    const { payload, sale } = await saleActionRequest(runtime, ctx.params, 'delivery-rdv');
    const data = tokenData(deliveryRdvTokenData, payload);
    const appointment = { provider: data.provider, reference: data.reference, date: data.date ?? null, timeWindow: data.timeWindow ?? null };
    const context: CommandContext = ctx.state.commandContext;
    const { incrementId } = sale;

    const result = await actOnce(
      runtime,
      payload,
      context,
      {
        precheck: () => saleRefusal(runtime, incrementId, { type: 'SaveDeliveryServiceAppointment', ...appointment, at: runtime.clock.now().toISOString() }),
        act: () => saveDeliveryServiceAppointment(runtime.salesDeps, { incrementId, ...appointment }, context),
      },
      ctx.state,
    );
    if (result.status === 'refused') throw refusalError(result.refusal);

    ctx.body = {
      success: true,
      sale_id: sale._id,
      increment_id: incrementId,
      status: result.status,
      delivery_appointment: { provider: appointment.provider, reference: appointment.reference, date: appointment.date, time_window: appointment.timeWindow },
      message: result.status === 'saved' ? 'The delivery service appointment is saved' : 'The sale already has this delivery service appointment',
    };
  };
