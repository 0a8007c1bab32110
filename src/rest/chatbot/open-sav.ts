import type { RouterMiddleware } from '@koa/router';
import { createSav, type CreateSavInput } from '../../events/after-sales/create-sav.ts';
import type { CommandContext } from '../../events/command-context.ts';
import { findSaleByIncrementId } from '../../projections/sales/queries.ts';
import type { SaleDocument } from '../../projections/sales/sale-document.ts';
import type { Runtime } from '../../runtime.ts';
import { parseInput } from '../parse-input.ts';
import { invalidParameters, notTheOrdersCustomer, orderNotFound, productNotInOrder } from './chatbot-errors.ts';
import { nameInUrl } from '../core/sav/sav-links.ts';
import { savCreationDeps } from './sav-sale-loader.ts';
import { savRequestBody, type SavRequestBody } from './schemas.ts';

/** The products the request names: every line of the order with that SKU, or the one sale product. */
const namedProducts = (sale: SaleDocument, body: SavRequestBody): number[] =>
  sale.products
    .filter((product) => (body.product_sku !== undefined ? product.sku === body.product_sku : product.saleProductId === body.sale_product_id))
    .map((product) => product.saleProductId);

/** Photos and videos are given as links: they are attached as such and fetched later. */
const linksOf = (body: SavRequestBody): CreateSavInput['files'] => [
  ...(body.photos ?? []).map((url, index) => ({ kind: 'image' as const, category: 'photo', sourceUrl: url, fileName: nameInUrl(url, `photo-${index + 1}`) })),
  ...(body.videos ?? []).map((url, index) => ({ kind: 'video' as const, category: 'video', sourceUrl: url, fileName: nameInUrl(url, `video-${index + 1}`) })),
];

/**
 * POST /api/sav: a customer opens a SAV through the chatbot. The e-mail given must be the order's
 * customer's (in any case) and the product one of the order's; otherwise nothing is recorded. The
 * request type becomes the SAV's type; the chatbot books no appointment.
 */
export const openSav = (runtime: Runtime): RouterMiddleware => {
  const deps = savCreationDeps(runtime);
  return async (ctx) => {
    const body = parseInput(savRequestBody, ctx.request.body, invalidParameters);
    const sale = await findSaleByIncrementId(runtime.readStore, body.increment_id);
    if (!sale) throw orderNotFound(body.increment_id);
    if (sale.customer.emailLower !== body.email.toLowerCase()) throw notTheOrdersCustomer(body.increment_id);
    const named = body.product_sku !== undefined ? `le produit ${body.product_sku}` : `le produit de commande ${body.sale_product_id}`;
    const saleProductIds = namedProducts(sale, body);
    if (saleProductIds.length === 0) throw productNotInOrder(named, body.increment_id);

    const context: CommandContext = ctx.state.commandContext;
    const result = await createSav(
      deps,
      {
        saleProductIds,
        complaint: body.complaint,
        complaintName: body.complaint_name,
        savType: body.request_type,
        channel: 'chatbot',
        appointment: null,
        files: linksOf(body),
      },
      context,
    );
    if (result.status === 'refused') {
      // The products were checked on the order just read; only a SAV ID already taken gets here, an internal fault.
      if (result.refusal.code === 'unknown_sale_product') throw productNotInOrder(named, body.increment_id);
      throw new Error(`SAV creation refused: ${result.refusal.code} (${result.refusal.message})`);
    }
    ctx.body = { success: true, sav_id: result.savId, message: 'Votre demande SAV a bien été enregistrée' };
  };
};
