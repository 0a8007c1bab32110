import type { Config } from '../config/config.ts';
import type { SupplierName } from '../events/catalogue/common-schemas.ts';
import type { CommandContext } from '../events/command-context.ts';
import { readSale, type SalesDeps } from '../events/sales/deps.ts';
import { parseServiceOrderId, type ServiceOrderRef } from '../events/sales/service-order-id.ts';
import { createShippingLabel } from '../events/sales/shipping-label.ts';
import { hasSupplierLine, type Sale, type SaleProductState } from '../events/sales/state.ts';
import type { ReadStore } from '../projections/read-store/read-store.ts';
import { findSupplierLine } from '../projections/supplier-lines/queries.ts';
import { labelDataFromLine, labelDataFromSale, labelDigest, type LabelData } from './label-data.ts';
import { labelFileFor, labelPathFor } from './label-path.ts';
import { createPerKeyQueue } from './per-key-queue.ts';
import { renderLabelPdf } from './render-label.ts';
import { storedLabelMatches, writeFileAtomically } from './stored-label.ts';
import { formatTrackingNumber } from './tracking-number.ts';

/** What the label service needs; a Runtime has it all. */
export type LabelDeps = {
  config: Pick<Config, 'dataDir'>;
  readStore: ReadStore;
  /** The write side of sales, with the ID sequences (tracking numbers come from `tracking`). */
  salesDeps: SalesDeps;
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
const keepFileInStep = async (deps: LabelDeps, data: LabelData): Promise<ShippingLabel> => {
  const label = labelOf(deps, data);
  if (!(await storedLabelMatches(label.file, labelDigest(data)))) {
    await writeFileAtomically(label.file, await renderLabelPdf(data));
  }
  return label;
};

const supplierProduct = (sale: Sale | null, ref: ServiceOrderRef, supplier: SupplierName | undefined): SupplierProduct | null => {
  const product = sale?.products.find((candidate) => candidate.saleProductId === ref.saleProductId);
  if (!product || !hasSupplierLine(product)) return null;
  return supplier === undefined || product.supplier === supplier ? product : null;
};

/**
 * The write side: the sale's stream is the truth. A new label is rendered and stored first, then
 * recorded; when another request recorded one meanwhile (`label_exists`), the recorded tracking number
 * wins and the file is rendered again from it.
 */
const createOrRecover = async (
  deps: LabelDeps,
  ref: ServiceOrderRef,
  serviceOrderId: string,
  supplier: SupplierName | undefined,
  context: CommandContext,
): Promise<ShippingLabel | null> => {
  const sale = await readSale(deps.salesDeps.eventStore, ref.incrementId);
  const product = supplierProduct(sale, ref, supplier);
  if (!sale || !product) return null;
  if (product.label) return keepFileInStep(deps, labelDataFromSale(sale, product, serviceOrderId, product.label.trackingNumber));

  const [sequence] = await deps.salesDeps.ids.next('tracking');
  if (sequence === undefined) throw new RangeError('The tracking sequence handed out no number');
  const data = labelDataFromSale(sale, product, serviceOrderId, formatTrackingNumber(sequence));
  const label = labelOf(deps, data);
  await writeFileAtomically(label.file, await renderLabelPdf(data));

  const outcome = await createShippingLabel(
    deps.salesDeps,
    { incrementId: ref.incrementId, saleProductId: ref.saleProductId, trackingNumber: data.trackingNumber, labelPath: label.path },
    context,
  );
  if (outcome.status === 'created') return label;
  if (outcome.refusal.code !== 'label_exists') {
    throw new Error(`Shipping label of ${serviceOrderId} refused: ${outcome.refusal.code}`);
  }
  const recorded = await readSale(deps.salesDeps.eventStore, ref.incrementId);
  const recordedProduct = supplierProduct(recorded, ref, supplier);
  if (!recorded || !recordedProduct?.label) throw new Error(`Shipping label of ${serviceOrderId} refused as existing, yet none is recorded`);
  return keepFileInStep(deps, labelDataFromSale(recorded, recordedProduct, serviceOrderId, recordedProduct.label.trackingNumber));
};

/**
 * The shipping label of a supplier line, made on first demand: the recorded one when it exists (its
 * file rendered again if it was lost or is out of date), else a new one with a fresh tracking number.
 * Null when there is no such supplier line (or, with `supplier`, when it is another supplier's).
 * Called by GET /api/files/labels/... and by the order import for the lines it just imported.
 */
export const ensureShippingLabel = (
  deps: LabelDeps,
  input: { serviceOrderId: string; supplier?: SupplierName },
  context: CommandContext,
): Promise<ShippingLabel | null> => {
  const { serviceOrderId, supplier } = input;
  const ref = parseServiceOrderId(serviceOrderId);
  if (!ref) return Promise.resolve(null);
  return queue(`${deps.config.dataDir}\0${serviceOrderId}`, async () => {
    // The read model answers the common case (label recorded, file in step) without reading the stream.
    const line = await findSupplierLine(deps.readStore, serviceOrderId);
    if (line && supplier !== undefined && line.supplier !== supplier) return null;
    if (line?.trackingNumber) {
      const data = labelDataFromLine(line, line.trackingNumber);
      const label = labelOf(deps, data);
      if (await storedLabelMatches(label.file, labelDigest(data))) return label;
    }
    return createOrRecover(deps, ref, serviceOrderId, supplier, context);
  });
};
