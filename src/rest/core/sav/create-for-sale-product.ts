import type { RouterMiddleware } from '@koa/router';
import { createSav } from '../../../events/after-sales/create-sav.ts';
import type { SavAppointment } from '../../../events/after-sales/sav-commands.ts';
import type { CommandContext } from '../../../events/command-context.ts';
import { requestSavFileFetches } from '../../../jobs/sav-file-fetch-schedule.ts';
import { findSavById } from '../../../projections/after-sales/queries.ts';
import type { ReadStore } from '../../../projections/read-store/read-store.ts';
import { salesCollection, type SaleDocument } from '../../../projections/sales/sale-document.ts';
import type { Runtime } from '../../../runtime.ts';
import { savCreationDeps } from '../../chatbot/sav-sale-loader.ts';
import { parseInput } from '../../parse-input.ts';
import { presentSavFile } from '../../sav-files/sav-file-presenter.ts';
import { appointmentRefused, invalidField, invalidRequest, saleProductsNotFound } from './sav-errors.ts';
import { namesFilesByUrl, savFiles } from './sav-links.ts';
import { createSavBody, type CreateSavBody } from './schemas.ts';
import { noteWritten, seeWritten } from '../../../http/read-your-writes.ts';

/** The sales holding any of these products: one when the request is sound. */
const salesHolding = (store: ReadStore, saleProductIds: readonly number[]): Promise<SaleDocument[]> =>
  store
    .collection<SaleDocument>(salesCollection)
    .find({ 'products.saleProductId': { $in: [...saleProductIds] } }, { sort: { _id: 1 } })
    .toArray();

/** Products of two sales are the client's mistake (400); a product no sale has is not found (404). */
const checkOneSale = async (store: ReadStore, saleProductIds: readonly number[]): Promise<void> => {
  const sales = await salesHolding(store, saleProductIds);
  if (sales.length > 1) {
    const orders = sales.map((sale) => sale.incrementId).join(', ');
    throw invalidField('saleProductId', `the products belong to several sales (${orders}); a SAV covers the products of one sale`);
  }
  const products = new Set(sales[0]?.products.map((product) => product.saleProductId));
  const unknown = saleProductIds.filter((id) => !products.has(id));
  if (unknown.length > 0) throw saleProductsNotFound(unknown);
};

/** The appointment is booked only when both its day and its slot are given. */
const appointmentOf = (data: CreateSavBody['data']): SavAppointment | null =>
  data.rdv_date !== undefined && data.rdv_time !== undefined
    ? { date: data.rdv_date, time: data.rdv_time, phone: data.rdv_phone || null, comment: data.rdv_comment || null }
    : null;

/**
 * POST /api/sale-sav/create-for-sale-product: opens a SAV on products of one sale, books its
 * appointment when asked (a slot that cannot be had refuses the whole request: no SAV, no booking),
 * stores the images and videos sent as data URLs and attaches those given by URL, which the fetch job
 * fetches after the answer. The sale log records the creation from SavCreated.
 */
export const createForSaleProduct = (runtime: Runtime): RouterMiddleware => {
  const deps = savCreationDeps(runtime);
  return async (ctx) => {
    const body = parseInput(createSavBody, ctx.request.body, invalidRequest);
    const saleProductIds = [...new Set([body.saleProductId].flat())];
    await checkOneSale(runtime.readStore, saleProductIds);

    const appointment = appointmentOf(body.data);
    const context: CommandContext = ctx.state.commandContext;
    const files = savFiles([
      { kind: 'image', category: 'image', items: body.data.images },
      { kind: 'video', category: 'video', items: body.data.videos },
    ]);
    const result = await createSav(
      deps,
      {
        saleProductIds,
        complaint: body.data.complaint,
        complaintName: body.data.complaint_name,
        savType: body.data.sav_type,
        channel: 'core',
        appointment,
        files,
      },
      context,
    );
    if (result.status === 'refused') {
      // Checked above; a product gone since then (a race) is as unknown as it would have been then.
      if (result.refusal.code === 'unknown_sale_product') throw saleProductsNotFound(saleProductIds);
      if (!appointment) throw new Error(`SAV creation refused: ${result.refusal.code} (${result.refusal.message})`);
      throw appointmentRefused(result.refusal, appointment);
    }
    noteWritten(ctx.state, result.written);
    // The SAV's files as its read model now holds them, where the fetch job finds those to fetch.
    await seeWritten(runtime.projections, result.written);
    if (namesFilesByUrl(files)) requestSavFileFetches(runtime);
    const sav = await findSavById(runtime.readStore, result.savId);
    const links = { baseUrl: runtime.config.baseUrl, group: 'core' as const };
    ctx.status = 201;
    ctx.body = {
      success: true,
      message: appointment ? 'SAV created and appointment scheduled' : 'SAV created',
      sav_id: result.savId,
      appointment: appointment && { date: appointment.date, time: appointment.time },
      files: (sav?.files ?? []).map((file) => presentSavFile(result.savId, file, links)),
    };
  };
};
