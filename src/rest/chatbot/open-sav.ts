import type { RouterMiddleware } from '@koa/router';
import { createSav } from '../../events/after-sales/create-sav.ts';
import type { CommandContext } from '../../events/command-context.ts';
import { requestSavFileFetches } from '../../jobs/sav-file-fetch-schedule.ts';
import { findSavById } from '../../projections/after-sales/queries.ts';
import { findSaleByIncrementId } from '../../projections/sales/queries.ts';
import type { SaleDocument } from '../../projections/sales/sale-document.ts';
import type { Runtime } from '../../runtime.ts';
import { parseInput } from '../parse-input.ts';
import { invalidParameters, noOrderForEmail, productNotInOrder } from './chatbot-errors.ts';
import { namesFilesByUrl, savFiles } from '../core/sav/sav-links.ts';
import { presentSavFile } from '../sav-files/sav-file-presenter.ts';
import { savCreationDeps } from './sav-sale-loader.ts';
import { savRequestBody, type SavRequestBody } from './schemas.ts';
import { noteWritten, seeWritten } from '../../http/read-your-writes.ts';

/** The products the request names: every line of the order with that SKU, or the one sale product. */
const namedProducts = (sale: SaleDocument, body: SavRequestBody): number[] =>
  sale.products
    .filter((product) => (body.product_sku !== undefined ? product.sku === body.product_sku : product.saleProductId === body.sale_product_id))
    .map((product) => product.saleProductId);

/**
 * POST /api/sav: a customer opens a SAV through the chatbot. The e-mail given must be the order's
 * customer's (in any case; an unknown order and another customer's get the same 404) and the product
 * one of the order's; otherwise nothing is recorded. The
 * request type becomes the SAV's type; the chatbot books no appointment.
 */
export const openSav = (runtime: Runtime): RouterMiddleware => {
  const deps = savCreationDeps(runtime);
  return async (ctx) => {
    const body = parseInput(savRequestBody, ctx.request.body, invalidParameters);
    const sale = await findSaleByIncrementId(runtime.readStore, body.increment_id);
    if (!sale || sale.customer.emailLower !== body.email.toLowerCase()) throw noOrderForEmail(body.increment_id);
    const named = body.product_sku !== undefined ? `le produit ${body.product_sku}` : `le produit de commande ${body.sale_product_id}`;
    const saleProductIds = namedProducts(sale, body);
    if (saleProductIds.length === 0) throw productNotInOrder(named, body.increment_id);

    const context: CommandContext = ctx.state.commandContext;
    const files = savFiles([
      { kind: 'image', category: 'photo', items: body.photos },
      { kind: 'video', category: 'video', items: body.videos },
    ]);
    const result = await createSav(
      deps,
      {
        saleProductIds,
        complaint: body.complaint,
        complaintName: body.complaint_name,
        savType: body.request_type,
        channel: 'chatbot',
        appointment: null,
        files,
      },
      context,
    );
    if (result.status === 'refused') {
      // The products were checked on the order just read; only a SAV ID already taken gets here, an internal fault.
      if (result.refusal.code === 'unknown_sale_product') throw productNotInOrder(named, body.increment_id);
      throw new Error(`SAV creation refused: ${result.refusal.code} (${result.refusal.message})`);
    }
    noteWritten(ctx.state, result.written);
    // The files as the SAV now holds them: stored (data URLs) or to be fetched (URLs), where the fetch job finds them.
    await seeWritten(runtime.projections, result.written);
    if (namesFilesByUrl(files)) requestSavFileFetches(runtime);
    const sav = await findSavById(runtime.readStore, result.savId);
    const links = { baseUrl: runtime.config.baseUrl, group: 'chatbot' as const };
    const presented = (sav?.files ?? []).map((file) => presentSavFile(result.savId, file, links));
    ctx.body = { success: true, sav_id: result.savId, message: 'Votre demande SAV a bien été enregistrée', files: presented };
  };
};
