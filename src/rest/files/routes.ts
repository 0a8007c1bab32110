import { readFile } from 'node:fs/promises';
import Router from '@koa/router';
import type { Middleware } from 'koa';
import { ensureShippingLabel, type ShippingLabel } from '../../labels/label-service.ts';
import { parseLabelPath } from '../../files/label-path.ts';
import type { Runtime } from '../../runtime.ts';
import { apiGroup } from '../middleware/api-group.ts';
import { renderedOr503 } from '../pdf-unavailable.ts';
import { fileNotFound } from './file-answers.ts';
import { filesPrefix, labelAccess, type LabelAccess } from './label-access.ts';

/**
 * GET /api/files/<path>: the files the supplier API links to, today the shipping labels
 * `labels/<supplier>/<service_order_id>.pdf`, each rendered on first demand. A label opens with its
 * signed link or its supplier's token (label-access.ts); another supplier's token gets the same 404 as
 * a line that does not exist.
 */

const isMissingFile = (error: unknown): boolean => (error as NodeJS.ErrnoException).code === 'ENOENT';

const serveLabel =
  (runtime: Runtime): Middleware =>
  async (ctx) => {
    // The raw path, before any decoding: only the exact label shape is accepted, so `..`, encoded
    // characters, backslashes or NUL never reach the file system.
    const requested = parseLabelPath(ctx.path.slice(filesPrefix.length));
    const access = ctx.state.labelAccess as LabelAccess;
    if (!requested || requested.supplier !== access.supplier) throw fileNotFound();

    // A label not yet on disk is rendered now, at a person's priority; 503 when the renderers cannot.
    const ensure = () => renderedOr503(ctx, ensureShippingLabel(runtime, requested, access.commandContext));
    let label: ShippingLabel | null = await ensure();
    if (!label) throw fileNotFound();
    let bytes: Buffer;
    try {
      bytes = await readFile(label.file);
    } catch (error) {
      // Deleted between its check and this read: made again once.
      if (!isMissingFile(error)) throw error;
      label = await ensure();
      if (!label) throw fileNotFound();
      bytes = await readFile(label.file);
    }

    ctx.type = 'application/pdf';
    ctx.set('Content-Disposition', `inline; filename="${requested.serviceOrderId}.pdf"`);
    // A label carries a customer's name and address: never kept by a shared cache, nor by the browser.
    ctx.set('Cache-Control', 'private, no-store');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = bytes;
  };

export const filesRoutes = (runtime: Runtime): Router => {
  const router = new Router();
  router.get('/api/files/*path', apiGroup('supplier'), labelAccess(runtime), serveLabel(runtime));
  return router;
};
