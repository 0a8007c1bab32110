import type { RouterMiddleware } from '@koa/router';
import { addressTokenData } from '../../../events/access/mint-action-token.ts';
import type { CommandContext } from '../../../events/command-context.ts';
import { updateSaleAddress } from '../../../events/sales/update-address.ts';
import type { Runtime } from '../../../runtime.ts';
import { refusalError } from './sale-action-errors.ts';
import { saleActionRequest, tokenData } from './sale-action-request.ts';
import { saleRefusal } from './sale-precheck.ts';
import { actOnce } from './single-use.ts';

/**
 * POST /api/sale-address/{token}: the sale is delivered to the address the token carries. Refused
 * (409) once a product has been shipped or when the sale is cancelled; the token then stays usable.
 */
export const changeSaleAddress =
  (runtime: Runtime): RouterMiddleware =>
  async (ctx) => {
    const { payload, sale } = await saleActionRequest(runtime, ctx.params, 'address');
    const shippingAddress = tokenData(addressTokenData, payload);
    const context: CommandContext = ctx.state.commandContext;
    const { incrementId } = sale;

    const result = await actOnce(
      runtime,
      payload,
      context,
      {
        precheck: () => saleRefusal(runtime, incrementId, { type: 'UpdateSaleAddress', shippingAddress, at: runtime.clock.now().toISOString() }),
        act: () => updateSaleAddress(runtime.salesDeps, { incrementId, shippingAddress }, context),
      },
      ctx.state,
    );
    if (result.status === 'refused') throw refusalError(result.refusal);

    ctx.body = {
      success: true,
      sale_id: sale._id,
      increment_id: incrementId,
      status: result.status,
      shipping_address: shippingAddress,
      message: result.status === 'updated' ? 'The shipping address is updated' : 'The sale is already delivered to this address',
    };
  };
