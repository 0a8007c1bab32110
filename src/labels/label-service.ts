import type { Config } from '../config/config.ts';
import type { SupplierName } from '../events/schema/common-schemas.ts';
import type { CommandContext } from '../events/command-context.ts';
import { readSale, type SalesDeps } from '../events/sales/deps.ts';
import { allocateTrackingNumber } from '../events/sales/allocate-tracking-number.ts';
import { parseServiceOrderId, serviceOrderId, type ServiceOrderRef } from '../events/sales/service-order-id.ts';
import { hasSupplierLine, type Sale, type SaleProductState } from '../events/sales/state.ts';
import type { ReadStore } from '../projections/read-store/read-store.ts';
import { findSupplierLine } from '../projections/supplier-lines/queries.ts';
import { labelDataFromLine, labelDataFromSale, labelDigest, type LabelData } from './label-data.ts';
import { labelFileFor, labelPathFor } from '../files/label-path.ts';
import { createPerKeyQueue } from '../concurrency/per-key-queue.ts';
import type { PdfPool } from '../pdf/pdf-pool.ts';
import type { PdfPriority } from '../pdf/pdf-job.ts';
import { storedLabelMatches, writeFileAtomically } from './stored-label.ts';

/** What the label service needs; a Runtime has it all. */
export type LabelDeps = {
  config: Pick<Config, 'dataDir'>;
  readStore: ReadStore;
  /** The write side of sales, with the ID sequences (for lines imported before numbers were allocated at import). */
  salesDeps: SalesDeps;
  /** The PDF renderers (worker threads). */
  pdf: PdfPool;
};

export type ShippingLabel = {
  /** As served by GET /api/files/<path>. */
  path: string;
  trackingNumber: string;
  /** The PDF on disk, absolute. */
  file: string;
};

type SupplierProduct = SaleProductState & { supplier: SupplierName };

// One queue for the process, keyed by data folder and line: work on one label is never done twice at once.
const queue = createPerKeyQueue();

const labelOf = (deps: LabelDeps, data: LabelData): ShippingLabel => ({
  path: labelPathFor(data.supplier, data.serviceOrderId),
  trackingNumber: data.trackingNumber,
  file: labelFileFor(deps.config.dataDir, data.supplier, data.serviceOrderId),
});

/** Renders the file again unless the one on disk was rendered from exactly this data. */
const keepFileInStep = async (deps: LabelDeps, data: LabelData, priority: PdfPriority): Promise<ShippingLabel> => {
  const label = labelOf(deps, data);
  if (!(await storedLabelMatches(label.file, labelDigest(data)))) {
    await writeFileAtomically(label.file, await deps.pdf.render({ kind: 'label', data }, priority));
  }
  return label;
};

const supplierProduct = (sale: Sale | null, ref: ServiceOrderRef, supplier: SupplierName | undefined): SupplierProduct | null => {
  const product = sale?.products.find((candidate) => candidate.saleProductId === ref.saleProductId);
  if (!product || !hasSupplierLine(product)) return null;
  return supplier === undefined || product.supplier === supplier ? product : null;
};

/**
 * A line created before tracking numbers were allocated at import gets one now, recorded before
 * anything is rendered; when another request recorded one meanwhile, that one is the line's.
 */
const numberOf = async (deps: LabelDeps, ref: ServiceOrderRef, product: SupplierProduct, context: CommandContext): Promise<string> => {
  if (product.trackingNumber !== null) return product.trackingNumber;
  const outcome = await allocateTrackingNumber(deps.salesDeps, ref, context);
  if (outcome.status === 'refused') {
    throw new Error(`Tracking number of ${serviceOrderId(ref.incrementId, ref.saleProductId)} refused: ${outcome.refusal.code}`);
  }
  return outcome.trackingNumber;
};

/** The write side: the sale's stream is the truth (the read model may lag, or the file be out of step). */
const fromSaleStream = async (
  deps: LabelDeps,
  ref: ServiceOrderRef,
  id: string,
  supplier: SupplierName | undefined,
  priority: PdfPriority,
  context: CommandContext,
): Promise<ShippingLabel | null> => {
  const sale = await readSale(deps.salesDeps.eventStore, ref.incrementId);
  const product = supplierProduct(sale, ref, supplier);
  if (!sale || !product) return null;
  const trackingNumber = await numberOf(deps, ref, product, context);
  return keepFileInStep(deps, labelDataFromSale(sale, product, id, trackingNumber), priority);
};

/**
 * The shipping label of a supplier line, rendered on first demand with the line's tracking number (and
 * rendered again when its file was lost or is out of date: the address changed). Null when there is no
 * such supplier line (or, with `supplier`, when it is another supplier's). Called by GET
 * /api/files/labels/... (a supplier waits: `person` priority, the default) and by the label backlog
 * for the lines of imported orders (`background`). A document the PDF pool cannot render now fails
 * with its error (pdf-errors.ts).
 */
export const ensureShippingLabel = (
  deps: LabelDeps,
  input: { serviceOrderId: string; supplier?: SupplierName; priority?: PdfPriority },
  context: CommandContext,
): Promise<ShippingLabel | null> => {
  const { serviceOrderId, supplier, priority = 'person' } = input;
  const ref = parseServiceOrderId(serviceOrderId);
  if (!ref) return Promise.resolve(null);
  return queue(`${deps.config.dataDir}\0${serviceOrderId}`, async () => {
    // The read model answers the common case (number recorded, file in step) without reading the stream.
    const line = await findSupplierLine(deps.readStore, serviceOrderId);
    if (line && supplier !== undefined && line.supplier !== supplier) return null;
    if (line?.trackingNumber) {
      const data = labelDataFromLine(line, line.trackingNumber);
      const label = labelOf(deps, data);
      if (await storedLabelMatches(label.file, labelDigest(data))) return label;
    }
    return fromSaleStream(deps, ref, serviceOrderId, supplier, priority, context);
  });
};
